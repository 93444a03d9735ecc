"""Rotary encoder turned through its pins; buzzer read at the PWM pin; the LED."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from drivers.encoder import Encoder
from drivers.signals import TUNES, Buzzer, StatusLed, Volume


def turn(factory: MockFactory, clockwise: bool) -> None:
    a, b = factory.pin(17), factory.pin(27)
    first, second = (a, b) if clockwise else (b, a)
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


class Clock:
    """Mock time for the button's debounce: the test says when each edge happens."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def chatter(pin: MockPin, clock: Clock, settle_low: bool, edges: int = 6, step: float = 0.0007) -> None:
    """A contact closing (or opening) as real ones do: ``edges`` fast toggles before it settles."""
    for i in range(edges):
        clock.now += step
        if (i % 2 == 0) == settle_low:
            pin.drive_low()
        else:
            pin.drive_high()
    clock.now += step
    if settle_low:
        pin.drive_low()
    else:
        pin.drive_high()


def test_encoder_turns(factory: MockFactory) -> None:
    events: list[str] = []
    with Encoder(17, 27, 22, pin_factory=factory, on_event=events.append, clock=Clock()):
        turn(factory, clockwise=True)
        turn(factory, clockwise=True)
        turn(factory, clockwise=False)
    assert events == ["DOWN", "DOWN", "UP"]


def test_a_bouncing_press_and_release_is_exactly_one_push(factory: MockFactory) -> None:
    """Release bounce fired a second PUSH (a menu confirmed what nobody confirmed)."""
    events: list[str] = []
    clock = Clock()
    button = factory.pin(22)
    with Encoder(17, 27, 22, pin_factory=factory, on_event=events.append, clock=clock):
        for _ in range(3):
            clock.now += 1.0
            chatter(button, clock, settle_low=True)
            clock.now += 0.15  # held 150 ms
            chatter(button, clock, settle_low=False)
    assert events == ["PUSH", "PUSH", "PUSH"]


def test_a_long_press_is_one_push_and_counts_while_still_held(factory: MockFactory) -> None:
    events: list[str] = []
    clock = Clock()
    button = factory.pin(22)
    with Encoder(17, 27, 22, pin_factory=factory, on_event=events.append, clock=clock, debounce=0.03) as enc:
        chatter(button, clock, settle_low=True)
        clock.now += 0.05
        assert enc._low_since is not None
        enc._settled(enc._low_since)  # the timer's turn (its real 30 ms ran against the frozen mock clock)
        assert events == ["PUSH"]
        clock.now += 2.0
        chatter(button, clock, settle_low=False)
    assert events == ["PUSH"]


def test_a_glitch_shorter_than_the_debounce_is_no_push(factory: MockFactory) -> None:
    events: list[str] = []
    clock = Clock()
    button = factory.pin(22)
    with Encoder(17, 27, 22, pin_factory=factory, on_event=events.append, clock=clock):
        clock.now = 5.0
        button.drive_low()
        clock.now += 0.002
        button.drive_high()
    assert events == []


def test_the_button_asks_the_pin_for_a_stable_level_too(factory: MockFactory) -> None:
    """On the Pi lgpio filters with bounce_time; the mock only stores it, so our filter must work alone."""
    with Encoder(17, 27, 22, pin_factory=factory, clock=Clock()) as enc:
        assert enc._button is not None and enc._button.pin.bounce == enc.debounce


def wait_quiet(buzzer: Buzzer) -> None:
    buzzer._queue.put(None)  # the worker stops after what is queued: the tune has played
    buzzer._thread.join(5)


def test_buzzer_plays_the_tune_at_its_frequencies(pwm_factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    buzzer = Buzzer(18, pin_factory=pwm_factory, volume=Volume.LOW)
    pin = pwm_factory.pin(18)
    frequencies: list[float | None] = []
    set_frequency = pin._set_frequency

    def recorded(frequency: float | None) -> None:  # a history, like states
        frequencies.append(frequency)
        set_frequency(frequency)

    monkeypatch.setattr(pin, "_set_frequency", recorded)
    buzzer.play("card")
    wait_quiet(buzzer)
    assert frequencies == [TUNES["card"][0][0], None] and TUNES["card"][0][0] == 1760.0
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


def test_no_pwm_runs_between_tunes(pwm_factory: MockFactory) -> None:
    """After a tune (and before the first) the PWM is stopped, not left running at duty 0."""
    buzzer = Buzzer(18, pin_factory=pwm_factory, volume=Volume.HIGH)
    pin = pwm_factory.pin(18)
    assert pin.frequency is None
    buzzer.play("done")
    wait_quiet(buzzer)
    assert pin.frequency is None and pin.state == 0
    assert Volume.HIGH.value in [s.state for s in pin.states]  # it did sound
    buzzer.close()


def test_the_self_tests_beep_sounds_even_with_the_volume_off(pwm_factory: MockFactory) -> None:
    """Menü → Selbsttest asks "is the buzzer wired?": one blip, whatever the volume setting."""
    buzzer = Buzzer(18, pin_factory=pwm_factory, volume=Volume.OFF)
    buzzer.beep()
    wait_quiet(buzzer)
    assert [s.state for s in pwm_factory.pin(18).states] == [0, Volume.HIGH.value, 0]
    assert buzzer.played == []  # not a tune of the game
    buzzer.close()


def test_the_self_test_toggles_the_led(factory: MockFactory) -> None:
    led = StatusLed(23, pin_factory=factory)
    led.toggle()
    assert factory.pin(23).state
    led.toggle()
    assert not factory.pin(23).state
    led.close()
