"""Rotary encoder turned through its pins; buzzer read at the PWM pin; the LED."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from drivers.encoder import Encoder
from drivers.signals import TUNES, Buzzer, StatusLed, Volume


def turn(factory: MockFactory, clockwise: bool) -> None:
    a, b = factory.pin(17), factory.pin(27)
    first, second = (a, b) if clockwise else (b, a)
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


def test_encoder_turns_and_push(factory: MockFactory) -> None:
    events: list[str] = []
    now = [0.0]
    with Encoder(17, 27, 22, pin_factory=factory, on_event=events.append, clock=lambda: now[0]):
        turn(factory, clockwise=True)
        turn(factory, clockwise=True)
        turn(factory, clockwise=False)
        button = factory.pin(22)
        button.drive_low()
        button.drive_high()
        now[0] = 0.01  # a bounce 10 ms later
        button.drive_low()
        button.drive_high()
        now[0] = 0.5
        button.drive_low()
        button.drive_high()
    assert events == ["DOWN", "DOWN", "UP", "PUSH", "PUSH"]


def wait_quiet(buzzer: Buzzer) -> None:
    buzzer._queue.put(None)  # the worker stops after what is queued: the tune has played
    buzzer._thread.join(5)


def test_buzzer_plays_the_tune_at_its_frequencies(pwm_factory: MockFactory) -> None:
    buzzer = Buzzer(18, pin_factory=pwm_factory, volume=Volume.LOW)
    pin = pwm_factory.pin(18)
    buzzer.play("card")
    wait_quiet(buzzer)
    assert pin.frequency == TUNES["card"][0][0] == 1760.0
    assert [s.state for s in pin.states] == [0, Volume.LOW.value, 0]
    buzzer.close()
    buzzer.close()


def test_volume_off_is_silent_but_remembered(pwm_factory: MockFactory) -> None:
    buzzer = Buzzer(18, pin_factory=pwm_factory, volume=Volume.OFF)
    buzzer.play("done")
    wait_quiet(buzzer)
    assert [s.state for s in pwm_factory.pin(18).states] == [0]
    assert buzzer.played == ["done"]
    assert Volume.OFF.next() is Volume.LOW and Volume.HIGH.next() is Volume.OFF
    buzzer.close()


def test_led_blinks(factory: MockFactory) -> None:
    led = StatusLed(23, pin_factory=factory)
    led.on()
    assert factory.pin(23).state
    led.off()
    led.close()
