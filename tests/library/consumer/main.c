/* link-with-culd ARCH OUT INPUT...: links the inputs with libculd, the
 * first one handed over in memory, the others by name. */
#include <culd/culdLink.h>

#include <stdio.h>
#include <stdlib.h>

static void *readFile(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc(*size);
    if (data && fread(data, 1, *size, f) != *size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

static int fail(culdLinkHandle h, const char *what, culdLinkResult r) {
    size_t size = 0;
    fprintf(stderr, "%s failed: %d\n", what, (int)r);
    if (h && culdLinkGetErrorLogSize(h, &size) == CULDLINK_SUCCESS) {
        char *log = malloc(size);
        if (log && culdLinkGetErrorLog(h, log) == CULDLINK_SUCCESS)
            fputs(log, stderr);
        free(log);
    }
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: link-with-culd -arch=sm_XX OUT INPUT...\n");
        return 2;
    }
    const char *options[] = {argv[1]};
    culdLinkHandle h;
    culdLinkResult r = culdLinkCreate(&h, 1, options);
    if (r != CULDLINK_SUCCESS)
        return fail(h, "culdLinkCreate", r);
    size_t size = 0;
    void *first = readFile(argv[3], &size);
    if (!first)
        return fail(h, "reading the first input", CULDLINK_ERROR_INVALID_INPUT);
    r = culdLinkAddData(h, CULDLINK_INPUT_ANY, first, size, argv[3]);
    free(first);
    if (r != CULDLINK_SUCCESS)
        return fail(h, "culdLinkAddData", r);
    for (int i = 4; i < argc; ++i)
        if ((r = culdLinkAddFile(h, CULDLINK_INPUT_ANY, argv[i])) != CULDLINK_SUCCESS)
            return fail(h, "culdLinkAddFile", r);
    if ((r = culdLinkComplete(h)) != CULDLINK_SUCCESS)
        return fail(h, "culdLinkComplete", r);
    if ((r = culdLinkGetLinkedCubinSize(h, &size)) != CULDLINK_SUCCESS)
        return fail(h, "culdLinkGetLinkedCubinSize", r);
    void *cubin = malloc(size);
    if (!cubin || (r = culdLinkGetLinkedCubin(h, cubin)) != CULDLINK_SUCCESS)
        return fail(h, "culdLinkGetLinkedCubin", r);
    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(cubin, 1, size, out) != size || fclose(out) != 0)
        return fail(h, "writing the output", CULDLINK_ERROR_INTERNAL);
    free(cubin);
    culdLinkDestroy(&h);
    return 0;
}
