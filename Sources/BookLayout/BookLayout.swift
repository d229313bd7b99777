// BookLayout
