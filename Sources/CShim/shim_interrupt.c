#define _GNU_SOURCE
#include "shim_interrupt.h"
#include "shim_temporaries.h"
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

static _Atomic int requested;       /* the first signal, once it came */
static _Atomic int pipe_write = -1;

int shim_interrupt_open(void) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    atomic_store(&pipe_write, ends[1]);
    return ends[0];
}

void shim_interrupt_request(int signal) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&requested, &expected, signal)) {
        shim_temporaries_stop(signal);
        return;
    }
    int saved = errno;
    unsigned char number = (unsigned char)signal;
    int fd = atomic_load(&pipe_write);
    if (fd < 0 || write(fd, &number, 1) != 1) {
        /* Nobody can be told: stop as if no finish had been asked for. */
        shim_temporaries_stop(signal);
    }
    errno = saved;
}

int shim_interrupt_signal(void) {
    return atomic_load(&requested);
}
