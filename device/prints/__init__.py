"""Pictures for builders and players, drawn from the code's own data: the wiring from the pin
configuration the drivers open, the keypad overlay from the keypad's layout, the labels from the
editions' names. SVG in millimetres where it is printed, so that 100 % on paper is true size."""
