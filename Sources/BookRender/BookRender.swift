// BookRender
