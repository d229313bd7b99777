#ifndef BOOKRENDER_SHIM_INTERRUPT_H
#define BOOKRENDER_SHIM_INTERRUPT_H

/* A run with paid work in flight (the image calls of `illustrate`) takes the first SIGINT or
 * SIGTERM as a request to finish: it starts nothing new, waits for what is under way, keeps it,
 * and then ends by that signal. A second signal ends the process at once, as
 * `shim_temporaries_stop` does.
 *
 * `shim_interrupt_open` makes the pipe the handler tells the program through and returns its read
 * end, which yields one byte (the signal's number) when the first signal comes; -1 with errno on
 * failure. Call it before installing `shim_interrupt_request` with sigaction. */
int shim_interrupt_open(void);

/* The signal handler. Async-signal-safe. */
void shim_interrupt_request(int signal);

/* The signal that asked the run to finish; 0 while none has. */
int shim_interrupt_signal(void);

#endif
