"""Built-in tools of the ``science`` domain: geometry, algebra, statistics, physics, finance.

Why a science domain in an assistant's catalog: function-calling benchmarks (and
users' own APIs) are full of calculators, and a model trained only on mail and
calendars meets a math request as something new; it then invents a function
(``calculate_triangle``) instead of reading the tools it was given. Teaching
many small, similar formula tools, and requests that none of them fits, trains
exactly that reading. The tools are this project's own designs; none comes from
a benchmark. Template syntax: ``botpsy.train.catalog``.
"""

from __future__ import annotations

from collections.abc import Callable

from botpsy.train.catalog import (
    Param,
    ToolRecipe,
    array,
    enum,
    integer,
    number,
    recipe_factory,
    string,
)

_RESULT = {"result": "{@amount}"}
_ANSWERS = ["The result is {@amount}.", "It comes to {@amount}.", "That gives {@amount}."]


def _formula(
    name: str,
    description: str,
    params: dict[str, Param],
    required: list[str],
    requests: list[str],
) -> Callable[[], ToolRecipe]:
    """A formula tool's recipe factory: every formula answers with one number."""
    return recipe_factory(
        "science", name, description, params, required, requests, _RESULT, _ANSWERS
    )


_UNIT = (enum("Unit of the lengths", ["m", "cm", "ft", "in"]), "enum")

RECIPES = (
    _formula(
        "triangle_area",
        "Compute the area of a triangle from its base and height.",
        {"base": (number("Base length"), "length"), "height": (number("Height"), "length")},
        ["base", "height"],
        [
            "Calculate the area of a triangle with base {base} and height {height}.",
            "What's the area of a triangle whose base is {base} cm and height {height} cm?",
            "A triangle has a base of {base} and a height of {height}. How big is its area?",
            "Find the triangle area for base={base}, height={height}.",
        ],
    ),
    _formula(
        "circle_area",
        "Compute the area of a circle from its radius.",
        {"radius": (number("Radius"), "decimal"), "unit": _UNIT},
        ["radius"],
        [
            "What is the area of a circle with radius {radius}?",
            "Compute the area of a circle of radius {radius} {unit}.",
            "How much area does a circle with a {radius} radius cover?",
        ],
    ),
    _formula(
        "rectangle_perimeter",
        "Compute the perimeter of a rectangle.",
        {"length": (number("Length"), "length"), "width": (number("Width"), "length")},
        ["length", "width"],
        [
            "What is the perimeter of a rectangle {length} long and {width} wide?",
            "Find the perimeter of a {length} by {width} rectangle.",
            "A rectangle measures length {length} and width {width}; give me its perimeter.",
        ],
    ),
    _formula(
        "cylinder_volume",
        "Compute the volume of a cylinder from its radius and height.",
        {"radius": (number("Radius"), "decimal"), "height": (number("Height"), "length")},
        ["radius", "height"],
        [
            "Volume of a cylinder with radius {radius} and height {height}?",
            "How much does a cylinder hold if its radius is {radius} and its height {height}?",
            "Calculate the cylinder volume for radius {radius}, height {height}.",
        ],
    ),
    _formula(
        "solve_quadratic",
        "Find the real roots of a*x^2 + b*x + c = 0.",
        {
            "a": (integer("Coefficient of x^2"), "coefficient"),
            "b": (integer("Coefficient of x"), "coefficient"),
            "c": (integer("Constant term"), "coefficient"),
        },
        ["a", "b", "c"],
        [
            "Solve the quadratic equation with a={a}, b={b} and c={c}.",
            "Find the roots of {a}x^2 + {b}x + {c} = 0.",
            "What are the solutions of the quadratic with coefficients {a}, {b}, {c}?",
        ],
    ),
    _formula(
        "factorial",
        "Compute n! for a non-negative integer n.",
        {"n": (integer("The integer", minimum=0), "small_int")},
        ["n"],
        [
            "What is {n} factorial?",
            "Compute the factorial of {n}.",
            "Calculate {n}! for me.",
        ],
    ),
    _formula(
        "greatest_common_divisor",
        "Find the greatest common divisor of two integers.",
        {"a": (integer("First integer"), "big_int"), "b": (integer("Second integer"), "big_int")},
        ["a", "b"],
        [
            "What's the GCD of {a} and {b}?",
            "Find the greatest common divisor of {a} and {b}.",
            "Compute the highest common factor of the numbers {a} and {b}.",
        ],
    ),
    _formula(
        "is_prime",
        "Check whether an integer is a prime number.",
        {"number": (integer("The integer to test"), "big_int")},
        ["number"],
        [
            "Is {number} a prime number?",
            "Check if {number} is prime.",
            "Tell me whether {number} is prime.",
        ],
    ),
    _formula(
        "mean_of_numbers",
        "Compute the arithmetic mean of a list of numbers.",
        {"numbers": (array("The numbers", {"type": "number"}), "numbers")},
        ["numbers"],
        [
            "What is the average of {numbers}?",
            "Calculate the mean of these values: {numbers}.",
            "Find the arithmetic mean of {numbers}.",
        ],
    ),
    _formula(
        "standard_deviation",
        "Compute the standard deviation of a list of numbers.",
        {
            "numbers": (array("The numbers", {"type": "number"}), "numbers"),
            "sample": (
                {"type": "boolean", "description": "Sample (n-1) rather than population"},
                None,
            ),
        },
        ["numbers"],
        [
            "What's the standard deviation of {numbers}?",
            "Compute the spread (standard deviation) of {numbers}.",
            "Find the sample standard deviation of {numbers}.{sample=true}",
        ],
    ),
    _formula(
        "compound_interest",
        "Compute the final balance of a deposit with compound interest.",
        {
            "principal": (number("Initial deposit"), "principal"),
            "rate": (number("Annual interest rate in percent"), "interest_rate"),
            "years": (integer("Number of years"), "years"),
            "times_per_year": (integer("Compounding periods per year"), "small_count"),
        },
        ["principal", "rate", "years"],
        [
            "How much will {principal} grow to at {rate}% a year for {years} years?",
            "Compute compound interest on {principal} at {rate} percent annually over {years} years.",
            (
                "I invest {principal} at {rate}% compounded {times_per_year} times a year for {years} years. "
                "What's the final amount?"
            ),
        ],
    ),
    _formula(
        "loan_payment",
        "Compute the monthly payment of a fixed-rate loan.",
        {
            "principal": (number("Amount borrowed"), "principal"),
            "annual_rate": (number("Annual interest rate in percent"), "interest_rate"),
            "years": (integer("Loan term in years"), "years"),
        },
        ["principal", "annual_rate", "years"],
        [
            "What's the monthly payment on a {principal} loan at {annual_rate}% over {years} years?",
            "Calculate monthly installments for borrowing {principal} for {years} years at {annual_rate} percent.",
        ],
    ),
    _formula(
        "body_mass_index",
        "Compute the body mass index from weight and height.",
        {
            "weight_kg": (number("Weight in kilograms"), "body_weight"),
            "height_m": (number("Height in meters"), "body_height"),
        },
        ["weight_kg", "height_m"],
        [
            "What's the BMI of someone who weighs {weight_kg} kg and is {height_m} m tall?",
            "Calculate the body mass index for {weight_kg} kilograms and {height_m} meters.",
        ],
    ),
    _formula(
        "final_velocity",
        "Compute an object's final velocity under constant acceleration.",
        {
            "initial_velocity": (number("Initial velocity in m/s"), "speed"),
            "acceleration": (number("Acceleration in m/s^2"), "decimal"),
            "time": (number("Elapsed time in seconds"), "seconds"),
        },
        ["initial_velocity", "acceleration", "time"],
        [
            (
                "A car starts at {initial_velocity} m/s and accelerates at {acceleration} m/s^2 for {time} s. "
                "How fast is it going?"
            ),
            (
                "Find the final velocity for initial speed {initial_velocity} m/s, acceleration {acceleration} "
                "m/s^2 and time {time} seconds."
            ),
        ],
    ),
    _formula(
        "kinetic_energy",
        "Compute the kinetic energy of a moving mass.",
        {"mass": (number("Mass in kg"), "mass"), "velocity": (number("Speed in m/s"), "speed")},
        ["mass", "velocity"],
        [
            "What is the kinetic energy of a {mass} kg object moving at {velocity} m/s?",
            "Calculate the kinetic energy for mass {mass} kg and velocity {velocity} m/s.",
        ],
    ),
    _formula(
        "molar_mass",
        "Compute the molar mass of a chemical compound from its formula.",
        {"formula": (string("Chemical formula, e.g. H2O"), "formula")},
        ["formula"],
        [
            "What is the molar mass of {formula}?",
            "Calculate the molecular weight of {formula}.",
            "How many grams per mole is {formula}?",
        ],
    ),
    _formula(
        "definite_integral",
        "Integrate a function of x between two bounds.",
        {
            "function": (string("The function of x"), "function"),
            "lower": (number("Lower bound"), "small_count"),
            "upper": (number("Upper bound"), "small_int"),
        },
        ["function", "lower", "upper"],
        [
            "Integrate {function} from {lower} to {upper}.",
            "What is the area under f(x) = {function} between x={lower} and x={upper}?",
            "Compute the definite integral of {function} over [{lower}, {upper}].",
        ],
    ),
    _formula(
        "derivative_at",
        "Evaluate the derivative of a function of x at a point.",
        {
            "function": (string("The function of x"), "function"),
            "x": (number("The point"), "coefficient"),
        },
        ["function", "x"],
        [
            "What's the derivative of {function} at x = {x}?",
            "Find the slope of f(x) = {function} at x={x}.",
            "Differentiate {function} and evaluate it at {x}.",
        ],
    ),
    _formula(
        "distance_between_points",
        "Compute the straight-line distance between two points in the plane.",
        {
            "point_a": (array("First point [x, y]", {"type": "number"}), "point"),
            "point_b": (array("Second point [x, y]", {"type": "number"}), "point"),
        },
        ["point_a", "point_b"],
        [
            "How far apart are the points {point_a} and {point_b}?",
            "Compute the distance between {point_a} and {point_b}.",
        ],
    ),
)
