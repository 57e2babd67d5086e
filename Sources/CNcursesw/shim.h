#ifndef ACCESSDECK_CNCURSESW_SHIM_H
#define ACCESSDECK_CNCURSESW_SHIM_H

// Without these the wide-character API (cchar_t, setcchar, mvadd_wch, wget_wch) is hidden.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <stdio.h>
#include <ncursesw/curses.h>
#include <malloc.h>

// Swift 6 rejects ncurses' global mutable state and does not import macros;
// these accessors give the driver what it needs.
static inline WINDOW *accessdeck_stdscr(void) { return stdscr; }
static inline int accessdeck_lines(void) { return LINES; }
static inline int accessdeck_cols(void) { return COLS; }
static inline attr_t accessdeck_a_bold(void) { return A_BOLD; }
static inline attr_t accessdeck_a_reverse(void) { return A_REVERSE; }
static inline attr_t accessdeck_a_underline(void) { return A_UNDERLINE; }
static inline attr_t accessdeck_a_dim(void) { return A_DIM; }
static inline attr_t accessdeck_a_normal(void) { return A_NORMAL; }
static inline int accessdeck_key_f(int n) { return KEY_F(n); }
static inline int accessdeck_color_pair(int n) { return (int)COLOR_PAIR(n); }

// The mouse reports the app asks for; the masks are macros.
static inline mmask_t accessdeck_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t accessdeck_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t accessdeck_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t accessdeck_button5_pressed(void) { return BUTTON5_PRESSED; }

static inline int accessdeck_colors(void) { return COLORS; }
static inline int accessdeck_color_pairs(void) { return COLOR_PAIRS; }
static inline int accessdeck_key_max(void) { return KEY_MAX; }
// glibc declares wcwidth only under _XOPEN_SOURCE, which SwiftPM will not pass.
extern int wcwidth(wchar_t);
static inline int accessdeck_wcwidth(wchar_t c) { return wcwidth(c); }
// newterm on the process's own stdin/stdout, which Swift 6 sees as shared mutable globals.
static inline SCREEN *accessdeck_newterm(void) { return newterm(NULL, stdout, stdin); }
// The same for a named terminal type (a fallback when TERM has no terminfo entry here).
static inline SCREEN *accessdeck_newterm_named(const char *type) { return newterm(type, stdout, stdin); }

// From <ncursesw/term.h>, declared here because that header's hundreds of capability macros
// (lines, columns, …) have no business in Swift. TERMINAL is `struct term` there.
struct term;
extern int setupterm(const char *, int, int *);
extern struct term *set_curterm(struct term *);
extern int del_curterm(struct term *);

// What this machine's terminfo says of a terminal type, without opening a screen:
// 1 usable (its entry can move the cursor), 0 no entry here (or no terminfo database),
// -1 an entry that cannot draw screens (dumb, hardcopy: no cursor addressing).
// The probe's TERMINAL is freed and whatever was current before is made current again.
static inline int accessdeck_probe_terminal(const char *type, int fd) {
    int status = 0;
    struct term *saved = set_curterm(NULL);
    if (setupterm(type, fd, &status) != OK) {
        set_curterm(saved);
        return status == 1 ? -1 : 0;
    }
    const char *cup = tigetstr("cup");
    int usable = cup != NULL && cup != (char *)-1;
    struct term *probe = set_curterm(saved);
    if (probe != NULL) del_curterm(probe);
    return usable ? 1 : -1;
}

// glibc's allocator tuning for the frame loop (FrameMemory.swift); the parameter names are macros.
static inline void accessdeck_keep_freed_memory(int mmap_threshold, int trim_threshold) {
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    mallopt(M_TRIM_THRESHOLD, trim_threshold);
}

#endif
