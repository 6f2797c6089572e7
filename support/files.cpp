// Output files (see files.hpp). Our own.
#include "support/files.hpp"

#include "support/errors.hpp"
#include "support/signals.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace schedcheck {

void prepare_output_directory(const std::string& dir, const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir, error))
    throw InputError(fmt::format("{}: {}: cannot create the directory ({})", dir, option,
                                 error ? error.message() : "a file is in the way"));
  // Permission bits alone do not tell (root, ACLs, a read-only mount): create the probe file for real.
  const fs::path probe = fs::path(dir) / fmt::format(".schedcheck-probe-{}.tmp", ::getpid());
  errno = 0;
  std::ofstream out(probe, std::ios::binary | std::ios::trunc);
  const bool written = out && (out << "probe").flush();
  const int why = errno;
  out.close();
  fs::remove(probe, error);
  if (!written)
    throw InputError(fmt::format("{}: {}: cannot write in the directory ({})", dir, option,
                                 why != 0 ? std::strerror(why) : "the probe file could not be created"));
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string temporary = path + ".tmp";
  const RemovedOnQuit removed_on_quit(temporary);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(fmt::format("{}: cannot write (does the directory exist and is it writable?)", path));
    write(out);
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw InputError(fmt::format("{}: write failed (disk full?)", path));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::remove(temporary.c_str());
    throw InputError(fmt::format("{}: cannot rename the written file into place: {}", path, error.message()));
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

std::string shell_quoted(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789-_./=:,+@%") == std::string::npos;
  if (plain) return text;
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace schedcheck
