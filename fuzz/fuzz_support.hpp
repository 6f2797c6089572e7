// Shared pieces of the fuzz targets: the input as text, a scratch file the file-based readers can open, and the
// one way a target reports a broken property (the whole input and what differed on stderr, then abort, which
// libFuzzer and the replay driver both report as a failure). Our own. See docs/fuzzing.md.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace schedcheck::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A file in a directory of this process's own (removed at exit), rewritten for every input: the SWF, CSV and
// corpus readers take a path, and the corpus reader chooses the format by the file's extension.
class ScratchFile {
public:
  explicit ScratchFile(const std::string& name) {
    static const std::filesystem::path dir = [] {
      auto d = std::filesystem::temp_directory_path() / ("schedcheck-fuzz-" + std::to_string(::getpid()));
      std::filesystem::create_directories(d);
      static const auto remove = d;
      std::atexit([] {
        std::error_code ignored;
        std::filesystem::remove_all(remove, ignored);
      });
      return d;
    }();
    path_ = (dir / name).string();
  }
  const std::string& write(std::string_view text) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::fprintf(stderr, "fuzz: cannot write the scratch file %s\n", path_.c_str());
      std::abort();
    }
    return path_;
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// A property of the reader/writer pair failed: print what and the input, then abort.
[[noreturn]] inline void property_failed(std::string_view target, std::string_view what, std::string_view input,
                                         std::string_view first = {}, std::string_view second = {}) {
  std::fprintf(stderr, "\n%.*s: PROPERTY FAILED: %.*s\n--- input (%zu bytes)\n%.*s\n", static_cast<int>(target.size()),
               target.data(), static_cast<int>(what.size()), what.data(), input.size(), static_cast<int>(input.size()),
               input.data());
  if (!first.empty())
    std::fprintf(stderr, "--- first\n%.*s\n", static_cast<int>(first.size()), first.data());
  if (!second.empty())
    std::fprintf(stderr, "--- second\n%.*s\n", static_cast<int>(second.size()), second.data());
  std::abort();
}

}  // namespace schedcheck::fuzz
