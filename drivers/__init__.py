"""The table's hardware behind small interfaces: OLED, keypad, rotary encoder, buzzer and LED,
RFID reader. One implementation each: on a laptop and in the tests the same drivers run on a virtual table
(:mod:`drivers.virtual`: gpiozero's mock pins and the chip models); vendor imports happen only where a real
part is opened, so this package imports anywhere."""
