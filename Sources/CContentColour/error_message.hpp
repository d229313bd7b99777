#ifndef BOOKRENDER_ERROR_MESSAGE_HPP
#define BOOKRENDER_ERROR_MESSAGE_HPP

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

namespace content_stream {

/// Copies `message` into the caller's buffer, cut to fit and always NUL-terminated.
inline void copyMessage(std::string const &message, char *error, size_t size) {
    if (!error || size == 0) return;
    size_t n = std::min(message.size(), size - 1);
    std::memcpy(error, message.data(), n);
    error[n] = 0;
}

} // namespace content_stream

#endif
