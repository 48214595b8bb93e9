// libculd: the C API of culdLink.h over the core's link, the one the culd
// command runs (linkReportingErrors). A handle owns everything of its link:
// options, inputs, the linked cubin, the logs and, while it links, the
// Diagnostics that Diagnostics::get() returns on its threads; nothing is
// shared between handles.
#include "culd/culdLink.h"
#include "culd/culdLinkExt.h"

#include "culd/Diagnostics.h"
#include "culd/Driver.h"
#include "culd/InputKind.h"
#include "culd/MappedFile.h"
#include "culd/Options.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <vector>

struct culdLink {
    culd::Options options;
    // Create's verdict: a handle whose options failed links nothing.
    culdLinkResult createResult = CULDLINK_SUCCESS;

    // Inputs added, in order; a null buffer is a file.
    std::vector<std::string> inputNames;
    std::vector<const std::vector<uint8_t> *> inputData;
    std::deque<std::vector<uint8_t>> buffers; // stable addresses

    // culdLinkSetMessageCallback: messages go there instead of the logs.
    culdLinkMessageCallback messageCallback = nullptr;
    void *messageUserData = nullptr;

    bool completed = false;
    bool linked = false;
    // nvlink's exit status, once known (culdLinkGetExitStatus).
    bool exitStatusKnown = false;
    int exitStatus = culd::kExitFatal;
    std::vector<uint8_t> cubin;
    // An LTO link's PTX (-lto), as nvJitLinkGetLinkedPtx returns it; empty
    // when no LTO IR was linked.
    std::string ptx;
    std::string errorLog, infoLog;

    void logError(const std::string &message) {
        errorLog += culd::Diagnostics::prefix(culd::Severity::Error) + message + "\n";
    }
};

namespace {

using culd::InputKind;

// Options that ask for something other than a link into memory.
const char *nonLinkOption(const culd::Options &o) {
    if (o.showHelp)
        return "--help";
    if (o.showVersion)
        return "--version";
    if (o.listPlugins)
        return "--list-plugins";
    if (!o.hostLinkerScript.empty())
        return "--gen-host-linker-script";
    return nullptr;
}

bool kindMatches(culdLinkInputType type, InputKind kind) {
    switch (type) {
    case CULDLINK_INPUT_ANY: return true;
    case CULDLINK_INPUT_CUBIN: return kind == InputKind::Cubin;
    case CULDLINK_INPUT_PTX: return kind == InputKind::Ptx;
    case CULDLINK_INPUT_FATBIN: return kind == InputKind::Fatbin;
    case CULDLINK_INPUT_OBJECT: return kind == InputKind::HostObject;
    case CULDLINK_INPUT_LIBRARY:
        return kind == InputKind::Archive || kind == InputKind::ThinArchive;
    case CULDLINK_INPUT_LTOIR: return kind == InputKind::LtoIr;
    default: return false;
    }
}

const char *typeName(culdLinkInputType type) {
    switch (type) {
    case CULDLINK_INPUT_CUBIN: return "CULDLINK_INPUT_CUBIN";
    case CULDLINK_INPUT_PTX: return "CULDLINK_INPUT_PTX";
    case CULDLINK_INPUT_FATBIN: return "CULDLINK_INPUT_FATBIN";
    case CULDLINK_INPUT_OBJECT: return "CULDLINK_INPUT_OBJECT";
    case CULDLINK_INPUT_LIBRARY: return "CULDLINK_INPUT_LIBRARY";
    case CULDLINK_INPUT_LTOIR: return "CULDLINK_INPUT_LTOIR";
    default: return "?";
    }
}

// Checks an input against its declared type before it is queued: the
// types culd cannot link, and content that is not what the caller said.
culdLinkResult checkInput(culdLink &h, culdLinkInputType type, culd::ByteView bytes,
                          const std::string &name) {
    switch (type) {
    case CULDLINK_INPUT_LTOIR:
        if (h.options.lto)
            break; // checked against its content below
        h.logError(name + ": LTO IR input requires -lto (link-time optimization)");
        return CULDLINK_ERROR_LTO_NOT_ENABLED;
    case CULDLINK_INPUT_INDEX:
        h.logError(name + ": index files are not supported by culd");
        return CULDLINK_ERROR_UNRECOGNIZED_INPUT;
    case CULDLINK_INPUT_NONE:
        h.logError(name + ": input type CULDLINK_INPUT_NONE");
        return CULDLINK_ERROR_INVALID_INPUT;
    case CULDLINK_INPUT_ANY: return CULDLINK_SUCCESS;
    default: break;
    }
    if (type < CULDLINK_INPUT_CUBIN || type > CULDLINK_INPUT_LIBRARY) {
        h.logError(name + ": unknown input type " + std::to_string(int(type)));
        return CULDLINK_ERROR_INVALID_INPUT;
    }
    if (!kindMatches(type, culd::detectInputKind(bytes, name))) {
        h.logError(name + ": does not match input type " + typeName(type));
        return CULDLINK_ERROR_INCORRECT_INPUT_TYPE;
    }
    return CULDLINK_SUCCESS;
}

culdLinkMessageKind messageKind(culd::Severity severity) {
    switch (severity) {
    case culd::Severity::Info: return CULDLINK_MESSAGE_INFO;
    case culd::Severity::Warning: return CULDLINK_MESSAGE_WARNING;
    case culd::Severity::Error: break;
    }
    return CULDLINK_MESSAGE_ERROR;
}

// The state every call after Create needs.
culdLinkResult checkOpen(culdLinkHandle h) {
    if (!h)
        return CULDLINK_ERROR_NULL_INPUT;
    if (h->completed) {
        h->logError("the link is complete: no input can be added");
        return CULDLINK_ERROR_INTERNAL;
    }
    return CULDLINK_SUCCESS;
}

culdLinkResult logSize(culdLinkHandle h, const std::string &log, size_t *size) {
    if (!h || !size)
        return CULDLINK_ERROR_NULL_INPUT;
    *size = log.size() + 1;
    return CULDLINK_SUCCESS;
}

culdLinkResult copyLog(culdLinkHandle h, const std::string &log, char *out) {
    if (!h || !out)
        return CULDLINK_ERROR_NULL_INPUT;
    std::copy(log.begin(), log.end(), out);
    out[log.size()] = '\0';
    return CULDLINK_SUCCESS;
}

} // namespace

extern "C" {

culdLinkResult culdLinkCreate(culdLinkHandle *handle, uint32_t numOptions, const char **options) {
    // nvJitLink refuses a null option array even with no options.
    if (!handle || !options)
        return CULDLINK_ERROR_NULL_INPUT;
    *handle = nullptr;
    try {
        auto h = std::make_unique<culdLink>();
        std::vector<std::string> args;
        for (uint32_t i = 0; i < numOptions; ++i) {
            if (!options[i])
                return CULDLINK_ERROR_NULL_INPUT;
            args.emplace_back(options[i]);
        }
        try {
            h->options = culd::parseOptions(args);
            if (const char *option = nonLinkOption(h->options)) {
                h->logError(std::string("option ") + option + " is not a link option of libculd");
                h->createResult = CULDLINK_ERROR_INCOMPATIBLE_OPTIONS;
            } else if (h->options.archText.empty()) {
                h->logError("no target architecture given (use -arch=sm_XX)");
                h->createResult = CULDLINK_ERROR_MISSING_ARCH;
            }
        } catch (const culd::FatalError &e) {
            h->logError(e.what());
            h->createResult = CULDLINK_ERROR_UNRECOGNIZED_OPTION;
        }
        culdLinkResult result = h->createResult;
        h->exitStatusKnown = result != CULDLINK_SUCCESS;
        *handle = h.release();
        return result;
    } catch (...) {
        return CULDLINK_ERROR_INTERNAL;
    }
}

culdLinkResult culdLinkDestroy(culdLinkHandle *handle) {
    if (!handle || !*handle)
        return CULDLINK_ERROR_NULL_INPUT;
    delete *handle;
    *handle = nullptr;
    return CULDLINK_SUCCESS;
}

culdLinkResult culdLinkAddData(culdLinkHandle handle, culdLinkInputType inputType,
                               const void *data, size_t size, const char *name) {
    if (culdLinkResult r = checkOpen(handle))
        return r;
    culdLink &h = *handle;
    try {
        std::string inputName =
            name ? name : "culdLinkAddData input " + std::to_string(h.inputNames.size() + 1);
        if (!data || !size) {
            h.logError(inputName + ": no data");
            return CULDLINK_ERROR_INVALID_INPUT;
        }
        const auto *bytes = static_cast<const uint8_t *>(data);
        if (culdLinkResult r = checkInput(h, inputType, culd::ByteView{bytes, size}, inputName))
            return r;
        h.buffers.emplace_back(bytes, bytes + size);
        h.inputNames.push_back(std::move(inputName));
        h.inputData.push_back(&h.buffers.back());
        return CULDLINK_SUCCESS;
    } catch (...) {
        return CULDLINK_ERROR_INTERNAL;
    }
}

culdLinkResult culdLinkAddFile(culdLinkHandle handle, culdLinkInputType inputType,
                               const char *fileName) {
    if (culdLinkResult r = checkOpen(handle))
        return r;
    if (!fileName)
        return CULDLINK_ERROR_NULL_INPUT;
    culdLink &h = *handle;
    try {
        // Opened now to check it; read again at Complete, as the culd
        // command reads it.
        std::unique_ptr<culd::MappedFile> file = culd::MappedFile::open(fileName);
        if (culdLinkResult r = checkInput(h, inputType, file->bytes(), fileName))
            return r;
        h.inputNames.emplace_back(fileName);
        h.inputData.push_back(nullptr);
        return CULDLINK_SUCCESS;
    } catch (const culd::FatalError &e) {
        h.logError(e.what());
        return CULDLINK_ERROR_INVALID_INPUT;
    } catch (...) {
        return CULDLINK_ERROR_INTERNAL;
    }
}

culdLinkResult culdLinkComplete(culdLinkHandle handle) {
    if (culdLinkResult r = checkOpen(handle))
        return r;
    culdLink &h = *handle;
    h.completed = true;
    if (h.createResult != CULDLINK_SUCCESS)
        return h.createResult;
    try {
        culd::Options opts = h.options;
        opts.inputBuffers.assign(opts.inputs.size(), culd::InputBuffer{});
        for (size_t i = 0; i < h.inputNames.size(); ++i) {
            opts.inputs.push_back(h.inputNames[i]);
            const std::vector<uint8_t> *data = h.inputData[i];
            opts.inputBuffers.push_back(data ? culd::InputBuffer{data->data(), data->size()}
                                             : culd::InputBuffer{});
        }
        opts.outputBuffer = &h.cubin;
        opts.ltoPtxBuffer = &h.ptx;

        // This link's messages, to the caller's callback or into the
        // handle's logs.
        culd::Diagnostics diagnostics([&h](culd::Severity severity, const std::string &text) {
            if (h.messageCallback)
                h.messageCallback(h.messageUserData, messageKind(severity), text.c_str());
            else
                (severity == culd::Severity::Info ? h.infoLog : h.errorLog) += text;
        });
        diagnostics.setOptions(culd::diagnosticOptions(opts));
        culd::DiagnosticsScope scope(diagnostics);
        h.exitStatus = culd::linkReportingErrors(opts);
        h.exitStatusKnown = true;
        if (h.exitStatus != 0) {
            h.cubin.clear();
            h.ptx.clear();
            return CULDLINK_ERROR_INTERNAL;
        }
        h.linked = true;
        return CULDLINK_SUCCESS;
    } catch (...) {
        h.cubin.clear();
        h.exitStatus = culd::kExitFatal;
        h.exitStatusKnown = true;
        return CULDLINK_ERROR_INTERNAL;
    }
}

culdLinkResult culdLinkGetLinkedCubinSize(culdLinkHandle handle, size_t *size) {
    if (!handle || !size)
        return CULDLINK_ERROR_NULL_INPUT;
    if (!handle->linked)
        return CULDLINK_ERROR_INTERNAL;
    *size = handle->cubin.size();
    return CULDLINK_SUCCESS;
}

culdLinkResult culdLinkGetLinkedCubin(culdLinkHandle handle, void *cubin) {
    if (!handle || !cubin)
        return CULDLINK_ERROR_NULL_INPUT;
    if (!handle->linked)
        return CULDLINK_ERROR_INTERNAL;
    std::copy(handle->cubin.begin(), handle->cubin.end(), static_cast<uint8_t *>(cubin));
    return CULDLINK_SUCCESS;
}

// The PTX exists after a successful -lto link of LTO IR, as with
// nvJitLink; the size counts the terminating NUL.
culdLinkResult culdLinkGetLinkedPtxSize(culdLinkHandle handle, size_t *size) {
    if (!handle || !size)
        return CULDLINK_ERROR_NULL_INPUT;
    if (!handle->options.lto)
        return CULDLINK_ERROR_LTO_NOT_ENABLED;
    if (!handle->linked || handle->ptx.empty())
        return CULDLINK_ERROR_INTERNAL;
    *size = handle->ptx.size() + 1;
    return CULDLINK_SUCCESS;
}

culdLinkResult culdLinkGetLinkedPtx(culdLinkHandle handle, char *ptx) {
    if (!handle || !ptx)
        return CULDLINK_ERROR_NULL_INPUT;
    if (!handle->options.lto)
        return CULDLINK_ERROR_LTO_NOT_ENABLED;
    if (!handle->linked || handle->ptx.empty())
        return CULDLINK_ERROR_INTERNAL;
    std::copy(handle->ptx.begin(), handle->ptx.end(), ptx);
    ptx[handle->ptx.size()] = '\0';
    return CULDLINK_SUCCESS;
}

culdLinkResult culdLinkGetErrorLogSize(culdLinkHandle handle, size_t *size) {
    return logSize(handle, handle ? handle->errorLog : std::string(), size);
}

culdLinkResult culdLinkGetErrorLog(culdLinkHandle handle, char *log) {
    return copyLog(handle, handle ? handle->errorLog : std::string(), log);
}

culdLinkResult culdLinkGetInfoLogSize(culdLinkHandle handle, size_t *size) {
    return logSize(handle, handle ? handle->infoLog : std::string(), size);
}

culdLinkResult culdLinkGetInfoLog(culdLinkHandle handle, char *log) {
    return copyLog(handle, handle ? handle->infoLog : std::string(), log);
}

culdLinkResult culdLinkSetMessageCallback(culdLinkHandle handle, culdLinkMessageCallback callback,
                                          void *userData) {
    if (culdLinkResult r = checkOpen(handle))
        return r;
    handle->messageCallback = callback;
    handle->messageUserData = userData;
    return CULDLINK_SUCCESS;
}

culdLinkResult culdLinkAddInputPath(culdLinkHandle handle, const char *path) {
    if (culdLinkResult r = checkOpen(handle))
        return r;
    if (!path)
        return CULDLINK_ERROR_NULL_INPUT;
    try {
        handle->inputNames.emplace_back(path);
        handle->inputData.push_back(nullptr);
        return CULDLINK_SUCCESS;
    } catch (...) {
        return CULDLINK_ERROR_INTERNAL;
    }
}

culdLinkResult culdLinkGetExitStatus(culdLinkHandle handle, int *status) {
    if (!handle || !status)
        return CULDLINK_ERROR_NULL_INPUT;
    if (!handle->exitStatusKnown)
        return CULDLINK_ERROR_INTERNAL;
    *status = handle->exitStatus;
    return CULDLINK_SUCCESS;
}

culdLinkResult culdLinkVersion(unsigned int *major, unsigned int *minor) {
    if (!major || !minor)
        return CULDLINK_ERROR_NULL_INPUT;
    *major = CULD_VERSION_MAJOR;
    *minor = CULD_VERSION_MINOR;
    return CULDLINK_SUCCESS;
}

} // extern "C"
