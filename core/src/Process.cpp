#include "culd/Process.h"

#include "culd/Diagnostics.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace culd {

ProcessResult runProcess(const std::vector<std::string> &args, bool withStderr) {
    int out[2];
    // Close-on-exec: a tool started concurrently by another thread must not
    // inherit this write end, or our read would wait for that tool too.
    if (pipe2(out, O_CLOEXEC) != 0)
        throw FatalError("cannot run '" + args[0] + "': " + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    if (withStderr)
        posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
    else
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::vector<std::string> copy = args;
    std::vector<char *> argv;
    for (std::string &a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    int rc = posix_spawnp(&pid, copy[0].c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        throw FatalError("cannot run '" + args[0] + "': " + std::strerror(rc));
    }
    ProcessResult result;
    char buf[4096];
    ssize_t n;
    while ((n = read(out[0], buf, sizeof buf)) > 0)
        result.output.append(buf, static_cast<size_t>(n));
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

} // namespace culd
