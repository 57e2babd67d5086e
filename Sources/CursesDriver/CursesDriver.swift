// CursesDriver
