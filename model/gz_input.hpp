// A text file read through zlib as a std::istream: gzip-compressed (.gz) or plain, told apart by zlib from the
// bytes. Our own. A read error (a corrupt or truncated .gz file) throws InputError naming the file, through the
// stream (the stream's badbit exception is set); zlib's own allocation failures throw std::bad_alloc.
#pragma once

#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

namespace schedcheck {

// The two zlib calls every reader of a possibly compressed file makes (the SWF reader, GzInput):
// Opens `path` (a gzFile; nullptr when it cannot be opened; std::bad_alloc when zlib's state does not fit), with
// zlib's buffer of `buffer` bytes (0: zlib's default).
void* gz_open(const std::string& path, std::size_t buffer = 0);
// Reads up to `size` bytes into `data`; 0 at the end of the file. Throws InputError "`where`: ..." for a corrupt file
// or a gzip stream that ends early (truncated), std::bad_alloc when zlib's buffers do not fit.
std::size_t gz_read(void* file, char* data, std::size_t size, const std::string& where);
void gz_close(void* file);

class GzInput : public std::istream {
public:
  // Throws InputError when the file cannot be opened.
  explicit GzInput(const std::string& path);
  ~GzInput() override;
  GzInput(const GzInput&) = delete;
  GzInput& operator=(const GzInput&) = delete;

private:
  class Buffer : public std::streambuf {
  public:
    explicit Buffer(std::string path);
    ~Buffer() override;
    bool open();
  protected:
    int_type underflow() override;
  private:
    std::string path_;
    void* file_ = nullptr;  // gzFile
    std::vector<char> bytes_;
  };
  Buffer buffer_;
};

}  // namespace schedcheck
