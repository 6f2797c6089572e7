// A text file read through zlib as a std::istream (see gz_input.hpp). Our own.
#include "model/gz_input.hpp"

#include "support/errors.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <cerrno>
#include <new>

namespace schedcheck {

void* gz_open(const std::string& path, std::size_t buffer) {
  errno = 0;
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file && errno == ENOMEM) throw std::bad_alloc();  // zlib's state did not fit (a memory limit)
  if (file && buffer > 0) gzbuffer(file, static_cast<unsigned>(buffer));
  return file;
}

std::size_t gz_read(void* file, char* data, std::size_t size, const std::string& where) {
  const int got = gzread(static_cast<gzFile>(file), data, static_cast<unsigned>(size));
  int code = Z_OK;
  if (got < 0) {
    const char* message = gzerror(static_cast<gzFile>(file), &code);
    if (code == Z_MEM_ERROR) throw std::bad_alloc();  // zlib's buffers did not fit (a memory limit), not the file
    throw InputError(fmt::format("{}: cannot read the file ({}: a truncated or corrupt .gz file?)", where,
                                 message ? message : "read error"));
  }
  if (got == 0) {
    // zlib reports a gzip stream cut short (no end of stream, or no trailer) only through gzerror.
    gzerror(static_cast<gzFile>(file), &code);
    if (code == Z_BUF_ERROR) throw InputError(fmt::format("{}: the compressed file ends early (truncated .gz file)", where));
  }
  return static_cast<std::size_t>(got);
}

void gz_close(void* file) {
  if (file) gzclose(static_cast<gzFile>(file));
}

GzInput::Buffer::Buffer(std::string path) : path_(std::move(path)), bytes_(std::size_t{1} << 16) {}

GzInput::Buffer::~Buffer() { gz_close(file_); }

bool GzInput::Buffer::open() {
  file_ = gz_open(path_);
  return file_ != nullptr;
}

GzInput::Buffer::int_type GzInput::Buffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  const std::size_t got = gz_read(file_, bytes_.data(), bytes_.size(), path_);
  if (got == 0) return traits_type::eof();
  setg(bytes_.data(), bytes_.data(), bytes_.data() + got);
  return traits_type::to_int_type(*gptr());
}

GzInput::GzInput(const std::string& path) : std::istream(nullptr), buffer_(path) {
  if (!buffer_.open())
    throw InputError(fmt::format("{}: cannot open the file (does it exist and is it readable?)", path));
  rdbuf(&buffer_);
  exceptions(std::ios::badbit);  // a read error or a failed allocation reaches the caller, never a short file
}

GzInput::~GzInput() = default;

}  // namespace schedcheck
