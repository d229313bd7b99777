#define _GNU_SOURCE
#include "shim_temporaries.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { FREE, FILLING, LIVE, REMOVING };
enum { KIND_FILE, KIND_FOLDER, KIND_CHILD };

/* Enough for the temporaries of every thread and child of a run; beyond, items go untracked. */
#define SLOTS 256
/* Threads that may be in a critical section at once (beyond, they wait for a free entry). */
#define CRITICAL_OWNERS 32
/* Folders inside a temporary folder (the scratch folder's `icc/`) are emptied this deep. */
#define MAX_DEPTH 4

struct slot {
    _Atomic int state;
    int kind;
    pid_t pid;
    int signal;
    /* A file's or folder's path; a child's leftovers (folder and prefix in turn). */
    size_t length;
    char path[PATH_MAX];
};

static struct slot slots[SLOTS];
static _Atomic int stop_signal;          /* non-zero once a stop has begun */
static _Atomic pid_t critical[CRITICAL_OWNERS]; /* the thread ids in a critical section */
static _Atomic int deferred_signal;      /* a stop left to the end of a critical section */
static _Atomic int cancel_signal;        /* non-zero once a cancel has begun */

static void wait_forever(void) {
    for (;;) pause();
}

static void sleep_briefly(void) {
    struct timespec pause_time = {0, 10 * 1000 * 1000};
    nanosleep(&pause_time, NULL);
}

static size_t text_length(const char *text) {
    size_t n = 0;
    while (text[n]) n++;
    return n;
}

/* Claims a free slot and fills it; the slot is LIVE before the item exists, so a stop that begins
 * meanwhile either sees it or is seen by the caller (which then makes nothing and waits). */
static int claim(int kind, const char *path, size_t length, pid_t pid, int signal) {
    if (atomic_load(&stop_signal)) wait_forever();
    if (length >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (int i = 0; i < SLOTS; i++) {
        int expected = FREE;
        if (!atomic_compare_exchange_strong(&slots[i].state, &expected, FILLING)) continue;
        slots[i].kind = kind;
        slots[i].pid = pid;
        slots[i].signal = signal;
        slots[i].length = length;
        if (length) memcpy(slots[i].path, path, length);
        slots[i].path[length] = '\0';
        atomic_store(&slots[i].state, LIVE);
        if (atomic_load(&stop_signal)) wait_forever();
        return i;
    }
    return SHIM_TEMPORARY_UNTRACKED;
}

int shim_temporaries_create_file(const char *path) {
    int slot = claim(KIND_FILE, path, text_length(path), 0, 0);
    if (slot == -1) return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        int saved = errno;
        shim_temporaries_forget(slot);
        errno = saved;
        return -1;
    }
    close(fd);
    /* A stop that began while the file was made may have passed its slot already. */
    if (atomic_load(&stop_signal)) {
        unlink(path);
        wait_forever();
    }
    return slot;
}

int shim_temporaries_create_folder(const char *path) {
    int slot = claim(KIND_FOLDER, path, text_length(path), 0, 0);
    if (slot == -1) return -1;
    if (mkdir(path, 0777) != 0) {
        int saved = errno;
        shim_temporaries_forget(slot);
        errno = saved;
        return -1;
    }
    if (atomic_load(&stop_signal)) {
        rmdir(path);
        wait_forever();
    }
    return slot;
}

int shim_temporaries_track_child(pid_t pid, int signal, const char *leftovers, size_t length) {
    return claim(KIND_CHILD, leftovers, leftovers ? length : 0, pid, signal);
}

void shim_temporaries_forget(int slot) {
    if (slot < 0 || slot >= SLOTS) return;
    int expected = LIVE;
    /* A slot being removed belongs to a stop that ends the process. */
    if (!atomic_compare_exchange_strong(&slots[slot].state, &expected, FREE)) wait_forever();
}

static int is_dot_or_dot_dot(const char *name) {
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/* Removes what is in the folder open as `folder`, folders inside it included. */
static void empty_folder(int folder, int depth) {
    char buffer[4096] __attribute__((aligned(8)));
    /* Entries removed while the folder is read may hide others: read again until none is left. */
    for (int pass = 0; pass < 8; pass++) {
        int removed = 0;
        lseek(folder, 0, SEEK_SET);
        ssize_t got;
        while ((got = getdents64(folder, buffer, sizeof buffer)) > 0) {
            for (ssize_t offset = 0; offset < got;) {
                struct dirent64 *entry = (struct dirent64 *)(buffer + offset);
                offset += entry->d_reclen;
                if (is_dot_or_dot_dot(entry->d_name)) continue;
                if (unlinkat(folder, entry->d_name, 0) == 0) {
                    removed = 1;
                    continue;
                }
                if (errno != EISDIR || depth >= MAX_DEPTH) continue;
                int inner = openat(folder, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (inner < 0) continue;
                empty_folder(inner, depth + 1);
                close(inner);
                if (unlinkat(folder, entry->d_name, AT_REMOVEDIR) == 0) removed = 1;
            }
        }
        if (!removed) return;
    }
}

static int starts_with(const char *name, const char *prefix) {
    for (size_t i = 0; prefix[i]; i++) {
        if (name[i] != prefix[i]) return 0;
    }
    return 1;
}

/* Removes the entries of `path` whose names start with `prefix` (never all of them: the prefix
 * must not be empty). */
static int remove_prefixed(const char *path, const char *prefix) {
    if (!prefix[0]) return 0;
    int folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) return 0;
    char buffer[4096] __attribute__((aligned(8)));
    int removed = 0;
    for (int pass = 0; pass < 8; pass++) {
        int found = 0;
        lseek(folder, 0, SEEK_SET);
        ssize_t got;
        while ((got = getdents64(folder, buffer, sizeof buffer)) > 0) {
            for (ssize_t offset = 0; offset < got;) {
                struct dirent64 *entry = (struct dirent64 *)(buffer + offset);
                offset += entry->d_reclen;
                if (!starts_with(entry->d_name, prefix)) continue;
                if (unlinkat(folder, entry->d_name, 0) != 0) {
                    if (errno != EISDIR) continue;
                    int inner = openat(folder, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                    if (inner < 0) continue;
                    empty_folder(inner, 1);
                    close(inner);
                    if (unlinkat(folder, entry->d_name, AT_REMOVEDIR) != 0) continue;
                }
                found = 1;
                removed++;
            }
        }
        if (!found) break;
    }
    close(folder);
    return removed;
}

int shim_temporaries_remove_leftovers(const char *leftovers, size_t length) {
    int removed = 0;
    size_t at = 0;
    while (at < length) {
        const char *folder = leftovers + at;
        at += text_length(folder) + 1;
        if (at >= length) break;
        const char *prefix = leftovers + at;
        at += text_length(prefix) + 1;
        removed += remove_prefixed(folder, prefix);
    }
    return removed;
}

/* Threads that go on writing while the process stops (a page's PNG, say) may add a file after the
 * folder was emptied: it is emptied again until it can be removed, for a bounded time. */
static void remove_folder(const char *path) {
    for (int attempt = 0; attempt < 100; attempt++) {
        int folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (folder >= 0) {
            empty_folder(folder, 0);
            close(folder);
        }
        if (rmdir(path) == 0 || errno != ENOTEMPTY) return;
        sleep_briefly();
    }
}

static int has_ended(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    /* WNOWAIT: the child stays to be reaped by whoever started it. */
    int result = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
    return result != 0 || info.si_pid == pid;
}

/* Sends the signal, gives the child time to remove its own temporaries, then kills it. */
static void stop_child(pid_t pid, int signal) {
    if (kill(pid, signal) != 0) return;
    for (int i = 0; i < 1000 && !has_ended(pid); i++) sleep_briefly();
    if (has_ended(pid)) return;
    kill(pid, SIGKILL);
    while (!has_ended(pid)) sleep_briefly();
}

static int in_critical_section(pid_t thread) {
    for (int i = 0; i < CRITICAL_OWNERS; i++) {
        if (atomic_load(&critical[i]) == thread) return 1;
    }
    return 0;
}

static int any_critical_section(void) {
    for (int i = 0; i < CRITICAL_OWNERS; i++) {
        if (atomic_load(&critical[i]) != 0) return 1;
    }
    return 0;
}

/* Removes everything recorded, children first (they may still be writing into the folders), and
 * ends the process with `signal`'s default action. */
static void remove_all_and_end(int signal) {
    while (any_critical_section()) sleep_briefly();
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < SLOTS; i++) {
            int expected = LIVE;
            if (!atomic_compare_exchange_strong(&slots[i].state, &expected, REMOVING)) continue;
            /* Read only once the slot is ours: its owner may have refilled it meanwhile. */
            int kind = slots[i].kind;
            if ((pass == 0) != (kind == KIND_CHILD)) {
                atomic_store(&slots[i].state, LIVE);
                continue;
            }
            switch (kind) {
            case KIND_CHILD:
                if (slots[i].pid > 0) stop_child(slots[i].pid, slots[i].signal ? slots[i].signal : signal);
                shim_temporaries_remove_leftovers(slots[i].path, slots[i].length);
                break;
            case KIND_FILE: unlink(slots[i].path); break;
            case KIND_FOLDER: remove_folder(slots[i].path); break;
            }
        }
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
    sigset_t unblocked;
    sigemptyset(&unblocked);
    sigaddset(&unblocked, signal);
    raise(signal);
    sigprocmask(SIG_UNBLOCK, &unblocked, NULL);
    /* The signals handled end the process by default; this is only a guard. */
    _exit(128 + signal);
}

void shim_temporaries_stop(int signal) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&stop_signal, &expected, signal)) return;
    if (in_critical_section(gettid())) {
        atomic_store(&deferred_signal, signal);
        return;
    }
    remove_all_and_end(signal);
}

void shim_temporaries_begin_critical(void) {
    pid_t self = gettid();
    for (;;) {
        if (atomic_load(&stop_signal)) wait_forever();
        for (int i = 0; i < CRITICAL_OWNERS; i++) {
            pid_t expected = 0;
            if (!atomic_compare_exchange_strong(&critical[i], &expected, self)) continue;
            if (atomic_load(&stop_signal)) {
                atomic_store(&critical[i], 0);
                wait_forever();
            }
            return;
        }
        sleep_briefly();
    }
}

void shim_temporaries_end_critical(void) {
    pid_t self = gettid();
    for (int i = 0; i < CRITICAL_OWNERS; i++) {
        if (atomic_load(&critical[i]) == self) {
            atomic_store(&critical[i], 0);
            break;
        }
    }
    int signal = atomic_exchange(&deferred_signal, 0);
    if (signal) remove_all_and_end(signal);
    if (atomic_load(&stop_signal)) wait_forever();
}

int shim_temporaries_stopping(void) {
    return atomic_load(&stop_signal) != 0;
}

void shim_temporaries_wait_if_stopping(void) {
    if (atomic_load(&stop_signal)) wait_forever();
}

/* --- Crashes --- */

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define CRASH_SIGNALS (int)(sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction crash_previous[CRASH_SIGNALS];
static _Atomic int crashing;

static void crash_handler(int signal, siginfo_t *info, void *context) {
    (void)context;
    if (!atomic_exchange(&crashing, 1)) {
        /* Other threads run on meanwhile: as in a stop, they make no new temporaries now. */
        int none = 0;
        atomic_compare_exchange_strong(&stop_signal, &none, signal);
        for (int i = 0; i < SLOTS; i++) {
            int expected = LIVE;
            if (!atomic_compare_exchange_strong(&slots[i].state, &expected, REMOVING)) continue;
            switch (slots[i].kind) {
            case KIND_CHILD:
                if (slots[i].pid > 0) kill(slots[i].pid, SIGKILL);
                break;
            case KIND_FILE: unlink(slots[i].path); break;
            case KIND_FOLDER: remove_folder(slots[i].path); break;
            }
        }
    }
    /* Sent by another process: no fault to report, and a backtracer that finds none returns and
     * lets the program go on without its files. The default action ends it by the signal. */
    int sent = info != NULL && info->si_code <= 0 && info->si_pid != getpid();
    for (int k = 0; k < CRASH_SIGNALS; k++) {
        if (crash_signals[k] != signal) continue;
        if (sent) {
            struct sigaction fallback;
            memset(&fallback, 0, sizeof fallback);
            fallback.sa_handler = SIG_DFL;
            sigemptyset(&fallback.sa_mask);
            sigaction(signal, &fallback, NULL);
        } else {
            sigaction(signal, &crash_previous[k], NULL);
        }
    }
    /* A fault returns to the instruction that caused it, which faults again into the handler that
     * was there before (abort() raises again by itself once a handler returns). A signal sent from
     * outside is raised again, now with its default action. */
    if (sent) {
        sigset_t unblocked;
        sigemptyset(&unblocked);
        sigaddset(&unblocked, signal);
        raise(signal);
        sigprocmask(SIG_UNBLOCK, &unblocked, NULL);
        _exit(128 + signal);
    }
}

int shim_temporaries_install_crash_cleanup(void) {
    /* Its own stack: a handler for a stack overflow cannot run on the stack that overflowed. */
    static char stack[64 * 1024];
    stack_t alternate;
    memset(&alternate, 0, sizeof alternate);
    alternate.ss_sp = stack;
    alternate.ss_size = sizeof stack;
    if (sigaltstack(&alternate, NULL) != 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = crash_handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    /* A program started from a thread that blocks signals inherits that mask; a blocked fault
     * ends the process at once, past any handler. */
    sigset_t unblocked;
    sigemptyset(&unblocked);
    for (int k = 0; k < CRASH_SIGNALS; k++) {
        if (sigaction(crash_signals[k], &action, &crash_previous[k]) != 0) return -1;
        sigaddset(&unblocked, crash_signals[k]);
    }
    return pthread_sigmask(SIG_UNBLOCK, &unblocked, NULL) == 0 ? 0 : -1;
}


void shim_temporaries_signal_children(int signal) {
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&slots[i].state) != LIVE || slots[i].kind != KIND_CHILD) continue;
        pid_t pid = slots[i].pid;
        if (pid > 0) kill(pid, signal);
    }
}

void shim_temporaries_cancel(int signal) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&cancel_signal, &expected, signal)) {
        shim_temporaries_stop(signal);
        return;
    }
    shim_temporaries_signal_children(signal);
}

int shim_temporaries_cancelled(void) {
    return atomic_load(&cancel_signal);
}
