#ifndef BOOKRENDER_SHIM_TEMPORARIES_H
#define BOOKRENDER_SHIM_TEMPORARIES_H
#include <sys/types.h>

/* What a run has in flight: the temporary files and folders it writes before renaming them into
 * place, and the child processes writing for it. Kept so that a signal handler can remove them:
 * paths are copied in when recorded, and the removal uses only async-signal-safe calls (open,
 * getdents64, unlinkat, rmdir, kill, waitid, nanosleep, raise), no lock and no allocation.
 *
 * The library never installs a signal handler; a program that wants its temporaries removed when
 * it is stopped installs `shim_temporaries_stop` for SIGINT, SIGTERM and SIGHUP itself. */

/* The slot a recorded item holds, for `shim_temporaries_forget`. */
enum { SHIM_TEMPORARY_UNTRACKED = -2 };

/* Creates `path` as a new empty file (never an existing one: O_EXCL) and records it, in one step,
 * so a removal never misses a file that exists. Returns its slot (SHIM_TEMPORARY_UNTRACKED when
 * every slot is taken: the file is made all the same), or -1 with errno set by the system. */
int shim_temporaries_create_file(const char *path);

/* The same for a new folder, removed with what is in it. */
int shim_temporaries_create_folder(const char *path);

/* Records a child process: a stop sends it `signal` (0: the signal that stopped this process, so
 * that a child which removes its own temporaries does so), waits for its end, and removes what it
 * left in `leftovers` (see `shim_temporaries_remove_leftovers`; NULL for nothing). */
int shim_temporaries_track_child(pid_t pid, int signal, const char *leftovers, size_t length);

/* Removes the files and folders (with what is in them) whose names start with a prefix, in a
 * folder: `leftovers` is `length` bytes of NUL-ended strings, folder and prefix in turn, such as
 * "/out\0.book.pdf.partial-123-\0". For what an ended process left behind. Async-signal-safe.
 * Returns how many were removed. */
int shim_temporaries_remove_leftovers(const char *leftovers, size_t length);

/* The item is done with: renamed into place, removed, or the child has ended. */
void shim_temporaries_forget(int slot);

/* Around a set of renames that must not be cut in half (a page set swapped in): a stop waits for
 * the set to be done before it removes anything, or, when the signal arrives on the thread doing
 * the renames, stops at `shim_temporaries_end_critical`. */
void shim_temporaries_begin_critical(void);
void shim_temporaries_end_critical(void);

/* A signal handler: removes every item recorded (stopping the children first), then ends the
 * process by `signal` with its default action, so the exit status is the signal's. Threads that
 * touch the registry meanwhile wait for the end. */
void shim_temporaries_stop(int signal);

/* Installs, for the faults and aborts that end a process (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGABRT, SIGTRAP), a handler that removes every file and folder recorded and kills the children,
 * waiting for nothing (the crashing thread may be the one inside a critical section), then lets
 * the handler that was there before, or the default action, take the signal: a crash leaves no
 * half-written output behind. It runs on a stack of its own, so a stack overflow is handled too.
 * For programs, like `shim_temporaries_stop`; the library never calls it. Returns 0, or -1. */
int shim_temporaries_install_crash_cleanup(void);

/* Whether a stop is under way; a thread that is about to end the process another way (exit after
 * an error that the stop caused) calls `shim_temporaries_wait_if_stopping` first. */
int shim_temporaries_stopping(void);
void shim_temporaries_wait_if_stopping(void);

/* A signal handler for a program that runs jobs in children and ends them gracefully (a batch):
 * the first signal passes itself on to every child recorded and is remembered, so the program
 * starts nothing new, lets its children end and reports them before it ends; a second one stops at
 * once (`shim_temporaries_stop`). Async-signal-safe. */
void shim_temporaries_cancel(int signal);

/* The signal a cancel began with; 0 when none has. */
int shim_temporaries_cancelled(void);

/* Sends `signal` to every child recorded. */
void shim_temporaries_signal_children(int signal);

#endif
