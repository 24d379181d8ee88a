print("not yet wired")
