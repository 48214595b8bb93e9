#include "culd/OutputFile.h"

#include "culd/Diagnostics.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace culd {

namespace {

std::string directoryOf(const std::string &path) {
    size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

void writeFileAtomically(const std::string &path, const std::vector<uint8_t> &bytes) {
    std::string tmpl = directoryOf(path) + "/.culd-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    int fd = mkstemp(name.data());
    if (fd < 0)
        throw FatalError("cannot create output file '" + path + "': " + std::strerror(errno));
    std::string tmp(name.data());
    auto fail = [&](const char *what) {
        int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        throw FatalError(std::string("cannot ") + what + " output file '" + path +
                         "': " + std::strerror(err));
    };
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail("write");
        }
        done += static_cast<size_t>(n);
    }
    // Regular permissions (mkstemp creates 0600), honouring the umask.
    mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd, 0666 & ~mask) != 0)
        fail("set permissions of");
    if (::close(fd) != 0) {
        fd = -1;
        int err = errno;
        ::unlink(tmp.c_str());
        throw FatalError("cannot write output file '" + path + "': " + std::strerror(err));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        throw FatalError("cannot write output file '" + path + "': " + std::strerror(err));
    }
}

} // namespace culd
