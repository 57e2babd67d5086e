print("accessdeck")
