#include "culd/MappedFile.h"

#include "culd/Diagnostics.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace culd {

namespace {

[[noreturn]] void failWithErrno(const std::string &path, const char *what, int err) {
    throw FatalError(path + ": " + what + ": " + std::strerror(err));
}

// Closes a descriptor on every path out of open(); the mapping stays valid
// after close.
struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
};

} // namespace

std::unique_ptr<MappedFile> MappedFile::open(const std::string &path) {
    // O_NONBLOCK: opening a FIFO or a device must not wait for a writer;
    // such files are refused below, and it changes nothing for mmap.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        failWithErrno(path, "cannot open", errno);
    FdCloser closer{fd};

    struct stat st;
    if (::fstat(fd, &st) != 0)
        failWithErrno(path, "cannot stat", errno);
    if (S_ISDIR(st.st_mode))
        throw FatalError(path + ": cannot open: is a directory");
    if (!S_ISREG(st.st_mode))
        throw FatalError(path + ": cannot open: not a regular file");

    std::unique_ptr<MappedFile> file(new MappedFile(path));
    if (st.st_size == 0)
        return file;

    void *map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED)
        failWithErrno(path, "cannot map", errno);
    file->mapping_ = map;
    file->view_ = ByteView{static_cast<const uint8_t *>(map), static_cast<uint64_t>(st.st_size)};
    return file;
}

std::unique_ptr<MappedFile> MappedFile::fromMemory(std::string name, std::vector<uint8_t> bytes) {
    std::unique_ptr<MappedFile> file(new MappedFile(std::move(name)));
    file->owned_ = std::move(bytes);
    file->view_ = ByteView{file->owned_.data(), file->owned_.size()};
    return file;
}

std::unique_ptr<MappedFile> MappedFile::view(std::string name, ByteView bytes) {
    std::unique_ptr<MappedFile> file(new MappedFile(std::move(name)));
    file->view_ = bytes;
    return file;
}

MappedFile::~MappedFile() {
    if (mapping_)
        ::munmap(mapping_, static_cast<size_t>(view_.size));
}

} // namespace culd
