// BookConfig
