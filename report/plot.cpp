// The gnuplot driver (see plot.hpp). Our own.
#include "report/plot.hpp"

#include "support/errors.hpp"
#include "support/memory.hpp"
#include "support/signals.hpp"
#include "support/stop.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

extern char** environ;

namespace schedcheck::report {

namespace {

namespace fs = std::filesystem;

// Removes a directory tree (a temporary directory of ours) when it goes out of scope.
class Cleanup {
public:
  explicit Cleanup(fs::path path) : path_(std::move(path)) {}
  Cleanup(const Cleanup&) = delete;
  Cleanup& operator=(const Cleanup&) = delete;
  ~Cleanup() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

fs::path make_temp_dir() {
  std::error_code error;
  const fs::path base = fs::temp_directory_path(error);
  if (error) throw InputError(fmt::format("plot: no temporary directory ({}); set TMPDIR to a writable directory", error.message()));
  std::string pattern = (base / "schedcheck-plot-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError(fmt::format("{}: cannot create a temporary directory ({}); set TMPDIR to a writable directory",
                                 base.string(), std::strerror(errno)));
  return pattern;
}

// The first line of gnuplot's stderr that locates the error ("FILE" line N: ...), else the first non-blank one.
std::string first_error_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line, first;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r^") == std::string::npos) continue;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find("\" line ") != std::string::npos) return line;
    if (first.empty()) first = line;
  }
  return first.empty() ? "(nothing on stderr)" : first;
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  std::string_view rest(path);
  while (true) {
    const auto colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    const std::string candidate = (fs::path(dir.empty() ? std::string_view(".") : dir) / name).string();
    std::error_code ignored;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate, ignored)) return candidate;
    if (colon == std::string_view::npos) return "";
    rest.remove_prefix(colon + 1);
  }
}

// Runs `gnuplot SCRIPT` with stdin and stdout on /dev/null and stderr into `err`; returns its wait status, or
// nullopt with `why` set when it could not be started.
std::optional<int> run_gnuplot(const std::string& gnuplot, const fs::path& script, const fs::path& err, std::string& why) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string program = gnuplot, script_path = script.string();
  char* argv[] = {program.data(), script_path.data(), nullptr};
  posix_spawnattr_t attributes;  // gnuplot must die on Ctrl-C even though our threads block it (support/signals.hpp)
  posix_spawnattr_init(&attributes);
  const sigset_t mask = child_signal_mask();
  posix_spawnattr_setsigmask(&attributes, &mask);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  int rc = 0;
  {
    const OriginalMemoryLimit unlimited;  // the child does not inherit --memory-mb
    rc = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv, environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) {
    why = std::strerror(rc);
    return std::nullopt;
  }
  const KilledOnQuit killed(pid);
  int status = 0;
  for (;;) {  // polled: a stopped run whose time to finish is up does not wait for the image
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) {
      why = std::strerror(errno);
      return std::nullopt;
    }
    if (finishing_time_up()) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      why = "cut short: the run was stopped and its time to finish is up";
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

bool is_svg(const std::string& out, const std::string& option) {
  std::string extension = fs::path(out).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (extension != ".png" && extension != ".svg")
    throw InputError(fmt::format("{} {}: expected a file name ending in .png or .svg (the format follows the extension)",
                                 option, out));
  return extension == ".svg";
}

bool gnuplot_available() { return !find_on_path("gnuplot").empty(); }

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') out += "''";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += ' ';
    else out += c;
  }
  return out + "'";
}

std::string path_string(const std::string& path) {
  std::string out = "\"";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || c == '"' || c == '\\') out += fmt::format("\\{:03o}", byte);
    else out += c;
  }
  return out + "\"";
}

std::string data_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += "\\042";
    else if (c == '\\') out += "\\\\";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += ' ';
    else out += c;
  }
  return out + "\"";
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}

std::string draw(const Plot& plot, const std::string& out) {
  const bool svg = is_svg(out);
  const std::string gnuplot = find_on_path("gnuplot");
  if (gnuplot.empty())
    throw InputError("gnuplot: not found on PATH; install the Debian package gnuplot-nox (scripts/deps does)");

  const std::string tmp_out = fs::absolute(out).string() + ".tmp";
  std::string script;
  if (svg) {
    script += fmt::format("set terminal svg size {},{} font 'Sans,10' noenhanced background rgb 'white'\n", plot.width,
                          plot.height);
  } else {
    script += fmt::format("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {{\n"
                          "  set terminal pngcairo size {0},{1} font 'Sans,10' noenhanced background rgb 'white'\n"
                          "}} else {{\n"
                          "  set terminal png size {0},{1} noenhanced background rgb 'white'\n"
                          "}}\n",
                          plot.width, plot.height);
  }
  const Cleanup dir(make_temp_dir());
  script += fmt::format("set output {}\n", path_string(tmp_out));
  script += fmt::format("cd {}\n", path_string(dir.path().string()));  // the data files by their names
  script += plot.commands;

  const fs::path script_file = dir.path() / "plot.gp", err_file = dir.path() / "gnuplot.err";
  auto write = [](const fs::path& file, const std::string& text) {
    std::ofstream stream(file, std::ios::binary | std::ios::trunc);
    stream << text;
    stream.flush();
    if (!stream) throw InputError(fmt::format("{}: cannot write a temporary file (disk full? set TMPDIR)", file.string()));
  };
  for (const auto& [name, text] : plot.data) write(dir.path() / name, text);
  write(script_file, script);

  const RemovedOnQuit removed_on_quit(tmp_out);
  {
    std::ofstream probe(tmp_out, std::ios::binary | std::ios::trunc);
    if (!probe)
      throw InputError(fmt::format("--out {}: cannot write {} (does the directory exist, is it writable?)", out, tmp_out));
  }
  // Ours now (a regular file): removed whatever happens; after the rename there is nothing left to remove.
  const std::unique_ptr<const std::string, void (*)(const std::string*)> partial(&tmp_out, [](const std::string* path) {
    std::error_code ignored;
    fs::remove(*path, ignored);
  });
  std::string why;
  const std::optional<int> status = run_gnuplot(gnuplot, script_file, err_file, why);
  if (!status) return one_line(fmt::format("gnuplot ({}) could not be run: {}", gnuplot, why));
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    const std::string how = WIFEXITED(*status) ? fmt::format("exit {}", WEXITSTATUS(*status))
                                               : fmt::format("signal {}", WTERMSIG(*status));
    return one_line(fmt::format("gnuplot failed ({}) drawing {}: {}", how, out, first_error_line(err_file)));
  }
  std::error_code error;
  const auto size = fs::file_size(tmp_out, error);
  if (error || size == 0)
    return one_line(fmt::format("gnuplot exited 0 but wrote no image to {}: {}", tmp_out, first_error_line(err_file)));
  fs::rename(tmp_out, out, error);
  if (error) throw InputError(fmt::format("--out {}: cannot rename {} to it ({})", out, tmp_out, error.message()));
  return "";
}

}  // namespace schedcheck::report
