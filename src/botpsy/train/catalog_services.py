"""Built-in tools of the service domains: weather, travel, shopping and generic APIs.

Each function declares one tool: its schema, the value source of each
argument, request paraphrases, a tool-output template and final answers (the
template syntax is described in ``botpsy.train.catalog``).
"""

from __future__ import annotations

from botpsy.train.catalog import (
    ToolRecipe,
    array,
    enum,
    integer,
    number,
    obj,
    string,
    tool,
)


def _get_current_weather() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_current_weather",
            "Current weather for a city.",
            {
                "city": string("City name"),
                "unit": enum("Temperature unit", ["celsius", "fahrenheit"]),
            },
            ["city"],
        ),
        domain="weather",
        sources={"city": "city", "unit": "enum"},
        requests=[
            "What's the weather in {city}?",
            "How warm is it in {city} right now?",
            "Is it raining in {city}?",
            "Weather in {city} in {unit}, please.",
            'Tell me the temperature in {city} in fahrenheit.{unit="fahrenheit"}',
        ],
        result={"city": "{city}", "condition": "{@condition}", "temperature": "{@temperature}"},
        answers=[
            "It's {@condition} and {@temperature} degrees in {city}.",
            "{city}: {@condition}, {@temperature} degrees.",
        ],
    )


def _get_forecast() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_forecast",
            "Daily weather forecast for a city.",
            {"city": string("City name"), "days": integer("Number of days", minimum=1, maximum=14)},
            ["city", "days"],
        ),
        domain="weather",
        sources={"city": "city", "days": "days"},
        requests=[
            "Give me the {days}-day forecast for {city}.",
            "What will the weather be in {city} over the next {days} days?",
            "Forecast for {city}, {days} days.",
        ],
        result={"city": "{city}", "summary": "{@condition}"},
        answers=[
            "Expect mostly {@condition} in {city}.",
            "The outlook for {city} is {@condition}.",
        ],
    )


def _get_air_quality() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_air_quality",
            "Air quality index for a city.",
            {"city": string("City name")},
            ["city"],
        ),
        domain="weather",
        sources={"city": "city"},
        requests=[
            "How is the air quality in {city}?",
            "Is the air clean in {city} today?",
            "Check the AQI for {city}.",
        ],
        result={"city": "{city}", "aqi": "{@percent}"},
        answers=[
            "The air quality index in {city} is {@percent}.",
            "{city} has an AQI of {@percent}.",
        ],
    )


def _get_sunrise_sunset() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_sunrise_sunset",
            "Sunrise and sunset times for a city on a day.",
            {"city": string("City name"), "date": string("Day, YYYY-MM-DD")},
            ["city", "date"],
        ),
        domain="weather",
        sources={"city": "city", "date": "date"},
        requests=[
            "When does the sun set in {city} on {date}?",
            "Sunrise time in {city} on {date}?",
            "Sunrise and sunset for {city} on {date}.",
        ],
        result={"sunrise": "{@time}", "sunset": "{@time}"},
        answers=["In {city} on {date} the sun rises at {@time}.", "Sunrise is at {@time}."],
    )


def _search_flights() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "search_flights",
            "Search flights between two airports.",
            {
                "origin": string("IATA code of the departure airport"),
                "destination": string("IATA code of the arrival airport"),
                "date": string("Departure day, YYYY-MM-DD"),
                "passengers": obj(
                    "Who travels",
                    {"adults": integer("Adults", minimum=1), "children": integer("Children")},
                    ["adults"],
                ),
                "cabin": enum("Cabin class", ["economy", "premium", "business"]),
            },
            ["origin", "destination", "date"],
        ),
        domain="travel",
        sources={
            "origin": "airport",
            "destination": "airport",
            "date": "date",
            "passengers.adults": "small_count",
            "passengers.children": "small_count",
            "cabin": "enum",
        },
        requests=[
            "Find flights from {origin} to {destination} on {date}.",
            ("Search a flight {origin} to {destination} on {date} for {passengers.adults} adults."),
            "I need a {cabin} flight from {origin} to {destination} on {date}.",
            (
                "Flights from {origin} to {destination} on {date} for {passengers.adults} adults "
                "and {passengers.children} kids."
            ),
        ],
        result={"flights": [{"number": "{@flight_number}", "departs": "{@time}"}]},
        answers=[
            "Flight {@flight_number} leaves at {@time}.",
            "The best option is {@flight_number} at {@time}.",
        ],
    )


def _search_hotels() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "search_hotels",
            "Search hotels in a city.",
            {
                "city": string("City name"),
                "check_in": string("Arrival day, YYYY-MM-DD"),
                "nights": integer("Number of nights", minimum=1),
                "guests": integer("Number of guests", minimum=1),
                "max_price": number("Highest price per night"),
            },
            ["city", "check_in", "nights"],
        ),
        domain="travel",
        sources={
            "city": "city",
            "check_in": "date",
            "nights": "days",
            "guests": "small_count",
            "max_price": "price",
        },
        requests=[
            "Find a hotel in {city} from {check_in} for {nights} nights.",
            "Hotels in {city}, arriving {check_in}, {nights} nights, {guests} guests.",
            (
                "Look for a room in {city} for {nights} nights from {check_in} "
                "under {max_price} a night."
            ),
        ],
        result={"hotels": [{"name": "Hotel {@brand}", "rating": "{@rating}"}]},
        answers=["Hotel {@brand} in {city} has {@rating} stars.", "I found Hotel {@brand}."],
    )


def _get_directions() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_directions",
            "Route between two places.",
            {
                "origin": string("Start"),
                "destination": string("End"),
                "mode": enum("How to travel", ["driving", "walking", "transit", "cycling"]),
            },
            ["origin", "destination"],
        ),
        domain="travel",
        sources={"origin": "city", "destination": "city", "mode": "enum"},
        requests=[
            "How do I get from {origin} to {destination}?",
            "Directions from {origin} to {destination} by {mode}.",
            "Route {origin} to {destination}, {mode}.",
        ],
        result={"duration_minutes": "{@minutes}"},
        answers=[
            "It takes about {@minutes} minutes.",
            "The trip is roughly {@minutes} minutes.",
        ],
    )


def _check_flight_status() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "check_flight_status",
            "Live status of a flight.",
            {"flight_number": string("Airline code and number, e.g. LH123")},
            ["flight_number"],
        ),
        domain="travel",
        sources={"flight_number": "flight_number"},
        requests=[
            "Is flight {flight_number} on time?",
            "Status of {flight_number}?",
            "Check flight {flight_number} for me.",
        ],
        result={"status": "on time", "gate": "{@small_count}"},
        answers=[
            "{flight_number} is on time at gate {@small_count}.",
            "On time, gate {@small_count}.",
        ],
    )


def _search_products() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "search_products",
            "Search the shop catalog.",
            {
                "query": string("What to look for"),
                "max_price": number("Highest price"),
                "brand": string("Brand name"),
                "sort_by": enum(
                    "Order of results", ["relevance", "price_low", "price_high", "rating"]
                ),
            },
            ["query"],
        ),
        domain="shopping",
        sources={"query": "product", "max_price": "price", "brand": "brand", "sort_by": "enum"},
        requests=[
            "Find {query} under {max_price}.",
            "Search the shop for {query}.",
            "Show me {brand} {query}.",
            'Look for {query}, cheapest first.{sort_by="price_low"}',
            "Find {query} sorted by {sort_by}.",
        ],
        result={"products": [{"name": "{@brand} {query}", "price": "{@amount}"}]},
        answers=["The {@brand} {query} costs {@amount}.", "Top result: {@brand} {query}."],
    )


def _add_to_cart() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "add_to_cart",
            "Add a product to the shopping cart.",
            {"product": string("Product name"), "quantity": integer("How many", minimum=1)},
            ["product", "quantity"],
            side_effect=True,
        ),
        domain="shopping",
        sources={"product": "product", "quantity": "count"},
        requests=[
            "Add {quantity} {product} to my cart.",
            "Put {quantity} of the {product} in the cart.",
            "I'll take {quantity} {product}.",
        ],
        result={"status": "added"},
        answers=[
            "{quantity} {product} added to your cart.",
            "Your cart now has the {product}.",
        ],
    )


def _track_order() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "track_order", "Where an order is.", {"order_id": string("Order id")}, ["order_id"]
        ),
        domain="shopping",
        sources={"order_id": "order_id"},
        requests=[
            "Where is order {order_id}?",
            "Track {order_id}.",
            "Has {order_id} shipped yet?",
        ],
        result={"status": "in transit", "eta": "{@date}"},
        answers=["{order_id} is in transit, due {@date}.", "It should arrive on {@date}."],
    )


def _get_product_reviews() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_product_reviews",
            "Customer reviews of a product.",
            {
                "product": string("Product name"),
                "min_rating": integer("Lowest star rating", minimum=1, maximum=5),
            },
            ["product"],
        ),
        domain="shopping",
        sources={"product": "product", "min_rating": "rating"},
        requests=[
            "What do people say about the {product}?",
            "Show {min_rating}-star reviews of the {product}.",
            "Reviews for {product}?",
        ],
        result={"average": "{@rating}"},
        answers=[
            "The {product} averages {@rating} stars.",
            "Buyers rate it {@rating} out of 5.",
        ],
    )


def _add_to_shopping_list() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "add_to_shopping_list",
            "Add items to the shopping list.",
            {"items": array("Items to add", string("Item"))},
            ["items"],
            side_effect=True,
        ),
        domain="shopping",
        sources={"items": "items"},
        requests=[
            "Add {items} to my shopping list.",
            "Put {items} on the list.",
            "I need to buy {items}, note it on my shopping list.",
        ],
        result={"status": "added"},
        answers=["Added {items} to your list.", "Your shopping list now includes {items}."],
    )


def _convert_units() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "convert_units",
            "Convert a value between units.",
            {
                "value": number("Amount to convert"),
                "from_unit": string("Unit symbol of the amount"),
                "to_unit": string("Target unit symbol"),
            },
            ["value", "from_unit", "to_unit"],
        ),
        domain="generic",
        sources={"value": "amount", "from_unit": "unit", "to_unit": "unit"},
        requests=[
            "Convert {value} {from_unit} to {to_unit}.",
            "How many {to_unit} is {value} {from_unit}?",
            "{value} {from_unit} in {to_unit}?",
        ],
        result={"result": "{@amount}"},
        answers=[
            "That is {@amount} {to_unit}.",
            "{value} {from_unit} is about {@amount} {to_unit}.",
        ],
    )


def _translate_text() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "translate_text",
            "Translate text into another language.",
            {
                "text": string("Text to translate"),
                "target_language": string("ISO 639-1 code of the target language"),
            },
            ["text", "target_language"],
        ),
        domain="generic",
        sources={"text": "phrase", "target_language": "language"},
        requests=[
            "Translate '{text}' into {target_language}.",
            "How do you say {text} in {target_language}?",
            "Say '{text}' in {target_language}.",
        ],
        result={"translation": "{@phrase}"},
        answers=["In that language it is: {@phrase}.", "The translation is '{@phrase}'."],
    )


def _define_word() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "define_word",
            "Dictionary definition of an English word.",
            {"word": string("The word")},
            ["word"],
        ),
        domain="generic",
        sources={"word": "word"},
        requests=["What does {word} mean?", "Define {word}.", "Look up the word {word}."],
        result={"definition": "{@note_text}"},
        answers=["{word} means: {@note_text}.", "Definition of {word}: {@note_text}."],
    )


def _web_search() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "web_search",
            "Search the web.",
            {
                "query": string("Search terms"),
                "num_results": integer("How many results", minimum=1, maximum=10),
            },
            ["query"],
        ),
        domain="generic",
        sources={"query": "query", "num_results": "count"},
        requests=[
            "Search the web for {query}.",
            "Look up {query} online.",
            "Give me {num_results} web results about {query}.",
        ],
        result={"results": [{"title": "{@topic}"}]},
        answers=["The top result is about {@topic}.", "I found a page on {@topic}."],
    )


def _get_time_in_timezone() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_time_in_timezone",
            "Current local time in a time zone.",
            {"timezone": string("IANA time zone name, e.g. Europe/Paris")},
            ["timezone"],
        ),
        domain="generic",
        sources={"timezone": "timezone"},
        requests=[
            "What time is it in {timezone}?",
            "Current time in {timezone}?",
            "Tell me the local time in {timezone}.",
        ],
        result={"time": "{@time}"},
        answers=["It's {@time} in {timezone}.", "Local time there is {@time}."],
    )


def _find_recipe() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "find_recipe",
            "Find a cooking recipe.",
            {
                "dish": string("Dish name"),
                "max_minutes": integer("Longest cooking time"),
                "diet": enum("Diet", ["none", "vegetarian", "vegan", "gluten_free"]),
            },
            ["dish"],
        ),
        domain="generic",
        sources={"dish": "dish", "max_minutes": "minutes", "diet": "enum"},
        requests=[
            "Find a recipe for {dish}.",
            "How do I make {dish} in under {max_minutes} minutes?",
            'I want a vegan {dish} recipe.{diet="vegan"}',
            "A {diet} recipe for {dish}, please.",
        ],
        result={"recipe": "{dish}", "minutes": "{@minutes}"},
        answers=[
            "Here's a {dish} recipe that takes {@minutes} minutes.",
            "Found one: {dish}, {@minutes} min.",
        ],
    )


def _calculate() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "calculate",
            "Evaluate an arithmetic expression.",
            {"expression": string("Expression using + - * / and parentheses")},
            ["expression"],
        ),
        domain="generic",
        sources={"expression": "expression"},
        requests=[
            "What is {expression}?",
            "Calculate {expression}.",
            "Work out {expression} for me.",
        ],
        result={"value": "{@amount}"},
        answers=["{expression} = {@amount}.", "The answer is {@amount}."],
    )


def _get_news() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "get_news",
            "Latest news headlines on a topic.",
            {"topic": string("Topic"), "count": integer("How many headlines", minimum=1)},
            ["topic"],
        ),
        domain="generic",
        sources={"topic": "query", "count": "count"},
        requests=[
            "What's the news on {topic}?",
            "Give me {count} headlines about {topic}.",
            "Any news about {topic}?",
        ],
        result={"headlines": ["{@topic}"]},
        answers=["Top headline: {@topic}.", "The latest on {topic}: {@topic}."],
    )


RECIPES = (
    _get_current_weather,
    _get_forecast,
    _get_air_quality,
    _get_sunrise_sunset,
    _search_flights,
    _search_hotels,
    _get_directions,
    _check_flight_status,
    _search_products,
    _add_to_cart,
    _track_order,
    _get_product_reviews,
    _add_to_shopping_list,
    _convert_units,
    _translate_text,
    _define_word,
    _web_search,
    _get_time_in_timezone,
    _find_recipe,
    _calculate,
    _get_news,
)
