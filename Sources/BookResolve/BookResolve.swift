// BookResolve
