// placeholder until batch jobs land
