print("bookrender")
