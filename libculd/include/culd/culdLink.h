/*
 * culdLink.h: culd as a library, in nvJitLink's shape.
 *
 * Every name of nvJitLink.h (CUDA 13.0) has its counterpart here with the
 * culdLink prefix, and the result and input-type values are nvJitLink's, so
 * that a program written against nvJitLink moves over by renaming. The
 * options are the culd command's (which are nvlink's): "-arch=sm_80",
 * "-g", "-Werror", "-L dir", "-lcudadevrt", "--kernels-used=k"...
 *
 *   culdLinkHandle h;
 *   const char *opts[] = {"-arch=sm_80"};
 *   culdLinkCreate(&h, 1, opts);
 *   culdLinkAddFile(h, CULDLINK_INPUT_ANY, "a.cubin");
 *   culdLinkAddData(h, CULDLINK_INPUT_CUBIN, bytes, size, "b.cubin");
 *   if (culdLinkComplete(h) != CULDLINK_SUCCESS) { ... culdLinkGetErrorLog ... }
 *   culdLinkGetLinkedCubinSize(h, &size); culdLinkGetLinkedCubin(h, buffer);
 *   culdLinkDestroy(&h);
 *
 * A handle is used by one thread at a time; separate handles may be used
 * from separate threads at once (the library keeps no process-wide state).
 * docs/library-api.md has the details.
 */
#ifndef CULD_CULDLINK_H
#define CULD_CULDLINK_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define CULDLINK_API __attribute__((visibility("default")))
#else
#define CULDLINK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* nvJitLinkResult, value for value. */
typedef enum {
    CULDLINK_SUCCESS = 0,
    CULDLINK_ERROR_UNRECOGNIZED_OPTION,  /* an option culd does not know, or a bad value */
    CULDLINK_ERROR_MISSING_ARCH,         /* no -arch=sm_NN */
    CULDLINK_ERROR_INVALID_INPUT,        /* unreadable file, null or empty data */
    CULDLINK_ERROR_PTX_COMPILE,
    CULDLINK_ERROR_NVVM_COMPILE,
    CULDLINK_ERROR_INTERNAL,             /* the link failed (see the error log), or a call out of order */
    CULDLINK_ERROR_THREADPOOL,
    CULDLINK_ERROR_UNRECOGNIZED_INPUT,   /* an input type culd cannot link (INDEX) */
    CULDLINK_ERROR_FINALIZE,
    CULDLINK_ERROR_NULL_INPUT,           /* a null handle or result pointer */
    CULDLINK_ERROR_INCOMPATIBLE_OPTIONS, /* an option that is no link (-o, --help, ...) */
    CULDLINK_ERROR_INCORRECT_INPUT_TYPE, /* the content is not of the type given */
    CULDLINK_ERROR_ARCH_MISMATCH,
    CULDLINK_ERROR_OUTDATED_LIBRARY,
    CULDLINK_ERROR_MISSING_FATBIN,
    CULDLINK_ERROR_UNRECOGNIZED_ARCH,
    CULDLINK_ERROR_UNSUPPORTED_ARCH,
    CULDLINK_ERROR_LTO_NOT_ENABLED       /* LTO IR or linked PTX without -lto */
} culdLinkResult;

/* nvJitLinkInputType, value for value. */
typedef enum {
    CULDLINK_INPUT_NONE = 0,
    CULDLINK_INPUT_CUBIN = 1,
    CULDLINK_INPUT_PTX,     /* compiled with ptxas, as the culd command does */
    CULDLINK_INPUT_LTOIR,   /* .ltoir; with -lto only (else CULDLINK_ERROR_LTO_NOT_ENABLED) */
    CULDLINK_INPUT_FATBIN,
    CULDLINK_INPUT_OBJECT,  /* host object with relocatable device code */
    CULDLINK_INPUT_LIBRARY, /* archive of those */
    CULDLINK_INPUT_INDEX,   /* refused: CULDLINK_ERROR_UNRECOGNIZED_INPUT */
    CULDLINK_INPUT_ANY = 10 /* told apart by content, as the culd command does */
} culdLinkInputType;

typedef struct culdLink *culdLinkHandle;

/* Creates a link with the culd command's options. On an option error the
 * handle is still created (its error log says what was wrong) and the
 * result is not CULDLINK_SUCCESS; destroy it. */
CULDLINK_API culdLinkResult culdLinkCreate(culdLinkHandle *handle, uint32_t numOptions,
                                           const char **options);

/* Destroys *handle and sets it to NULL. */
CULDLINK_API culdLinkResult culdLinkDestroy(culdLinkHandle *handle);

/* Adds an input in memory; the bytes are copied. `name` (may be NULL)
 * names it in diagnostics and plays the part of a file name. Inputs are
 * linked in the order added, after any input named in the options. */
CULDLINK_API culdLinkResult culdLinkAddData(culdLinkHandle handle, culdLinkInputType inputType,
                                            const void *data, size_t size, const char *name);

/* Adds an input file, read at culdLinkComplete. */
CULDLINK_API culdLinkResult culdLinkAddFile(culdLinkHandle handle, culdLinkInputType inputType,
                                            const char *fileName);

/* Links. Once per handle. */
CULDLINK_API culdLinkResult culdLinkComplete(culdLinkHandle handle);

/* The linked cubin, after a successful culdLinkComplete. */
CULDLINK_API culdLinkResult culdLinkGetLinkedCubinSize(culdLinkHandle handle, size_t *size);
CULDLINK_API culdLinkResult culdLinkGetLinkedCubin(culdLinkHandle handle, void *cubin);

/* The linked PTX of a link-time optimization (handle created with -lto,
 * every input LTO IR), after a successful culdLinkComplete; the size counts
 * the NUL. Without -lto: CULDLINK_ERROR_LTO_NOT_ENABLED. -lto needs
 * libnvJitLink and ptxas at run time (docs/library-api.md). */
CULDLINK_API culdLinkResult culdLinkGetLinkedPtxSize(culdLinkHandle handle, size_t *size);
CULDLINK_API culdLinkResult culdLinkGetLinkedPtx(culdLinkHandle handle, char *ptx);

/* The logs, NUL-terminated; the sizes count the NUL. The error log holds
 * the errors and warnings, one "culd error : ..." line each, as the culd
 * command prints them; the info log the rest (-v resource usage, infos,
 * --dump-callgraph). */
CULDLINK_API culdLinkResult culdLinkGetErrorLogSize(culdLinkHandle handle, size_t *size);
CULDLINK_API culdLinkResult culdLinkGetErrorLog(culdLinkHandle handle, char *log);
CULDLINK_API culdLinkResult culdLinkGetInfoLogSize(culdLinkHandle handle, size_t *size);
CULDLINK_API culdLinkResult culdLinkGetInfoLog(culdLinkHandle handle, char *log);

/* The library's version (culd's: 0.1 ...). */
CULDLINK_API culdLinkResult culdLinkVersion(unsigned int *major, unsigned int *minor);

#ifdef __cplusplus
}
#endif

#endif /* CULD_CULDLINK_H */
