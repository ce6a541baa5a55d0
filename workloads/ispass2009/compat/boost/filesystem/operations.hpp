/* Not upstream: the part of Boost.Filesystem that ISPASS AES
 * (aesCudaUtils.h/.cpp) uses -- path, exists, file_size,
 * boost::intmax_t -- as C++17's std::filesystem, so that AES builds
 * without Boost's headers (apps.toml: -I../compat). */
#pragma once
#include <cstdint>
#include <filesystem>

namespace boost {
using std::intmax_t;
namespace filesystem {
using std::filesystem::exists;
using std::filesystem::file_size;
using std::filesystem::path;
}  // namespace filesystem
}  // namespace boost
