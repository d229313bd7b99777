// placeholder until the generation step lands
