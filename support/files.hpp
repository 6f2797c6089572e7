// Output files a reader can trust: an output directory refused before any work when it cannot be written, and files
// written to PATH.tmp then renamed, so a reader never sees a half-written file. And the shell quoting of the
// commands written into files that reproduce them. Our own. Limits: a process killed mid-write leaves PATH.tmp.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace schedcheck {

// Creates the output directory `dir` (given with `option`, e.g. "--out") and proves it writable by creating and
// removing a probe file, so that a bad directory is refused before any work. Throws InputError (one line).
void prepare_output_directory(const std::string& dir, const std::string& option);

// Writes to PATH.tmp then renames, so a reader never sees a half-written file. Throws InputError when the file
// cannot be written (the directory is not writable, the disk is full).
void write_file_atomically(const std::string& path, const std::string& text);
// The same, streaming: `write` fills the file (a large file need not be built in memory first).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// A word for a POSIX shell: as it is when plain, else in single quotes (an inner ' as '\'').
std::string shell_quoted(const std::string& text);

}  // namespace schedcheck
