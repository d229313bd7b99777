// placeholder until the comparison code lands
