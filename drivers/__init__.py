"""The table's hardware behind small interfaces: OLED, keypad, rotary encoder, buzzer and LED,
RFID reader. Each has a real implementation for the Pi and a simulated twin for tests and
laptops; vendor imports happen only inside the real classes, so this package imports anywhere."""
