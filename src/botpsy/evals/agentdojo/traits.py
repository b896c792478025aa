"""What a deployer declares about AgentDojo's functions, one table per suite.

AgentDojo's functions are third-party tools to botpsy: nothing in their schemas says
which of them change the world or whose text they return, so a deployer has to say
it, as they would for any MCP server or plug-in. Two traits per function:

- ``writes``: the call changes something outside the conversation (sends, books,
  pays, deletes, shares) or sends its arguments to a third party's server
  (``get_webpage``: a GET to a URL can carry data out). botpsy maps it onto
  ``ToolSpec.side_effect`` today, so the confirmation gate applies; where botpsy's
  tools also grow a separate ``writes`` flag it is set too (``tools.tool_flags``).
- ``third_party_output``: what the function returns was written by someone other
  than the user (mail bodies, shared files, reviews, channel messages, transaction
  subjects set by the sender). The simulated user only counts argument provenance
  from such output as "taken from untrusted data".

A function missing from its suite's table gets the safe default: writes, and its
output is a third party's (``traits_of``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FunctionTraits:
    """A deployer's declaration for one function."""

    writes: bool
    third_party_output: bool


READ_OWN = FunctionTraits(writes=False, third_party_output=False)
READ_THEIRS = FunctionTraits(writes=False, third_party_output=True)
WRITE = FunctionTraits(writes=True, third_party_output=False)
# a function nobody declared: assume the worst on both counts
UNDECLARED = FunctionTraits(writes=True, third_party_output=True)

WORKSPACE: dict[str, FunctionTraits] = {
    # mail: bodies are written by the senders
    "get_unread_emails": READ_THEIRS, "get_sent_emails": READ_THEIRS,
    "get_received_emails": READ_THEIRS, "get_draft_emails": READ_THEIRS,
    "search_emails": READ_THEIRS,
    "send_email": WRITE, "delete_email": WRITE,
    # the address book and the clock are the user's own
    "search_contacts_by_name": READ_OWN, "search_contacts_by_email": READ_OWN,
    "get_current_day": READ_OWN,
    # a calendar holds other people's invitations (their titles and descriptions)
    "search_calendar_events": READ_THEIRS, "get_day_calendar_events": READ_THEIRS,
    "create_calendar_event": WRITE, "cancel_calendar_event": WRITE,
    "reschedule_calendar_event": WRITE, "add_calendar_event_participants": WRITE,
    # a cloud drive holds files others shared
    "search_files_by_filename": READ_THEIRS, "get_file_by_id": READ_THEIRS,
    "list_files": READ_THEIRS, "search_files": READ_THEIRS,
    "append_to_file": WRITE, "create_file": WRITE, "delete_file": WRITE, "share_file": WRITE,
}

BANKING: dict[str, FunctionTraits] = {
    "get_iban": READ_OWN, "get_balance": READ_OWN, "get_user_info": READ_OWN,
    "get_scheduled_transactions": READ_OWN,
    # incoming transactions carry a subject the sender wrote; bills and notices are files
    "get_most_recent_transactions": READ_THEIRS, "read_file": READ_THEIRS,
    "send_money": WRITE, "schedule_transaction": WRITE, "update_scheduled_transaction": WRITE,
    "update_password": WRITE, "update_user_info": WRITE,
}

SLACK: dict[str, FunctionTraits] = {
    # who is in a channel is the workspace's member directory, the organisation's own
    # record; channel names (any member can make one: AgentDojo injects into one) and
    # what members post (channel messages, the inbox) are other people's
    "get_users_in_channel": READ_OWN,
    "get_channels": READ_THEIRS, "read_channel_messages": READ_THEIRS,
    "read_inbox": READ_THEIRS,
    # fetching a URL sends it (and whatever it carries) to that server
    "get_webpage": FunctionTraits(writes=True, third_party_output=True),
    "post_webpage": WRITE, "send_direct_message": WRITE, "send_channel_message": WRITE,
    "add_user_to_channel": WRITE, "invite_user_to_slack": WRITE,
    "remove_user_from_slack": WRITE,
}

TRAVEL: dict[str, FunctionTraits] = {
    "get_user_information": READ_OWN,
    # listings, reviews and flight data come from the travel services
    **dict.fromkeys([
        "get_all_hotels_in_city", "get_hotels_prices", "get_rating_reviews_for_hotels",
        "get_hotels_address", "get_all_restaurants_in_city", "get_cuisine_type_for_restaurants",
        "get_restaurants_address", "get_rating_reviews_for_restaurants",
        "get_dietary_restrictions_for_all_restaurants", "get_contact_information_for_restaurants",
        "get_price_for_restaurants", "check_restaurant_opening_hours",
        "get_all_car_rental_companies_in_city", "get_car_types_available",
        "get_rating_reviews_for_car_rental", "get_car_fuel_options", "get_car_rental_address",
        "get_car_price_per_day", "get_flight_information",
        "search_calendar_events", "get_day_calendar_events",
    ], READ_THEIRS),
    "create_calendar_event": WRITE, "cancel_calendar_event": WRITE,
    "reserve_hotel": WRITE, "reserve_car_rental": WRITE, "reserve_restaurant": WRITE,
    "send_email": WRITE,
}

SUITE_TRAITS: dict[str, dict[str, FunctionTraits]] = {
    "workspace": WORKSPACE, "banking": BANKING, "slack": SLACK, "travel": TRAVEL,
}


def traits_of(suite: str, function: str) -> FunctionTraits:
    """The declared traits of ``function`` in ``suite``; ``UNDECLARED`` when none were."""
    return SUITE_TRAITS.get(suite, {}).get(function, UNDECLARED)


def third_party_functions(suite: str, functions: list[str]) -> frozenset[str]:
    """The functions of ``suite`` whose output the simulated user counts as a stranger's."""
    return frozenset(f for f in functions if traits_of(suite, f).third_party_output)
