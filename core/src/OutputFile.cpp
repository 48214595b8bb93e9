#include "culd/OutputFile.h"

#include "culd/Diagnostics.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace culd {

namespace {

// A temporary output file that is removed unless commit() renamed it.
class TemporaryFile {
public:
    explicit TemporaryFile(const std::string &target) : target_(target) {
        static std::atomic<unsigned> counter{0};
        for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
            path_ = target + ".culd-tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(counter++);
            // 0666 so that the umask decides the final permissions, as it
            // would for a file created directly.
            fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd_ < 0 && errno != EEXIST)
                fail("cannot create temporary file");
        }
        if (fd_ < 0)
            fail("cannot create temporary file");
    }
    ~TemporaryFile() {
        if (fd_ >= 0)
            ::close(fd_);
        if (!committed_ && !path_.empty())
            ::unlink(path_.c_str());
    }
    TemporaryFile(const TemporaryFile &) = delete;
    TemporaryFile &operator=(const TemporaryFile &) = delete;

    void write(const uint8_t *data, size_t size) {
        while (size > 0) {
            ssize_t n = ::write(fd_, data, size);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                fail("cannot write");
            data += n;
            size -= static_cast<size_t>(n);
        }
    }

    void commit() {
        int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0)
            fail("cannot write");
        if (::rename(path_.c_str(), target_.c_str()) != 0)
            fail("cannot rename temporary file into place");
        committed_ = true;
    }

private:
    [[noreturn]] void fail(const char *what) const {
        throw FatalError(target_ + ": " + what + ": " + std::strerror(errno));
    }

    std::string target_, path_;
    int fd_ = -1;
    bool committed_ = false;
};

} // namespace

void writeFileAtomically(const std::string &path, const std::vector<uint8_t> &bytes) {
    TemporaryFile file(path);
    file.write(bytes.data(), bytes.size());
    file.commit();
}

} // namespace culd
