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

static inline int accessdeck_colors(void) { return COLORS; }
static inline int accessdeck_color_pairs(void) { return COLOR_PAIRS; }
static inline int accessdeck_key_max(void) { return KEY_MAX; }
// glibc declares wcwidth only under _XOPEN_SOURCE, which SwiftPM will not pass.
extern int wcwidth(wchar_t);
static inline int accessdeck_wcwidth(wchar_t c) { return wcwidth(c); }
// newterm on the process's own stdin/stdout, which Swift 6 sees as shared mutable globals.
static inline SCREEN *accessdeck_newterm(void) { return newterm(NULL, stdout, stdin); }

#endif
