/*
 * culdLinkExt.h: culd's additions to culdLink.h, beyond nvJitLink's shape.
 *
 * They are what a command-line linker needs of the library; the culd
 * command is built on them (tools/culd/main.cpp):
 *
 *   culdLinkCreate(&h, n, options);            -- "-o out.cubin" allowed here
 *   culdLinkSetMessageCallback(h, print, 0);   -- messages as they happen
 *   culdLinkAddInputPath(h, "a.o");            -- read when the link runs
 *   culdLinkComplete(h);
 *   culdLinkGetExitStatus(h, &status);         -- nvlink's 0, 1 or 255
 *
 * "-o FILE" among culdLinkCreate's options makes culdLinkComplete write the
 * linked output to FILE as the culd command does (to a temporary file
 * renamed into place); culdLinkGetLinkedCubin still returns it.
 */
#ifndef CULD_CULDLINKEXT_H
#define CULD_CULDLINKEXT_H

#include "culd/culdLink.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CULDLINK_MESSAGE_INFO = 0, /* -v resource usage, infos, --dump-callgraph */
    CULDLINK_MESSAGE_WARNING,
    CULDLINK_MESSAGE_ERROR
} culdLinkMessageKind;

/* Receives each message as the link reports it: whole lines, newline
 * included, in the culd command's format ("culd error : ..."). Called on
 * the thread that runs culdLinkComplete, one call at a time. */
typedef void (*culdLinkMessageCallback)(void *userData, culdLinkMessageKind kind,
                                        const char *text);

/* Sends the link's messages to `callback` instead of the logs; NULL goes
 * back to the logs. Set it before culdLinkComplete. */
CULDLINK_API culdLinkResult culdLinkSetMessageCallback(culdLinkHandle handle,
                                                       culdLinkMessageCallback callback,
                                                       void *userData);

/* Adds an input by path, of any kind, without opening it: it is read when
 * the link runs, so that a missing or unreadable file is reported in the
 * link's order, as the culd command reports the files on its command line.
 * (culdLinkAddFile opens the file at once, as nvJitLinkAddFile does.) */
CULDLINK_API culdLinkResult culdLinkAddInputPath(culdLinkHandle handle, const char *path);

/* The exit status nvlink would give for this handle's link: 0 when it
 * linked, 1 for a fatal error (a bad option included), 255 when errors such
 * as undefined references stopped it. Available after culdLinkComplete, or
 * after a culdLinkCreate that failed. */
CULDLINK_API culdLinkResult culdLinkGetExitStatus(culdLinkHandle handle, int *status);

#ifdef __cplusplus
}
#endif

#endif /* CULD_CULDLINKEXT_H */
