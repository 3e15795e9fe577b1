"""The ``reasoning_details`` row of a protocol file (spec/protocols/*.yaml; a dialect's too):
reasoning as a list of typed items on a message (OpenRouter), who made each item's opaque state,
and the item kinds. Checked by codegen/reasoning_items.py, compiled into the flat messages and
the stream rows."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .spec_http import Strict


class OwnerRow(Strict):
    """A wire value naming who made opaque reasoning state (OpenRouter ``format``) <-> the
    protocol id that owns it (its state goes back only to that protocol or to this one)."""

    format: str = Field(description="wire value of the owner key")
    owner: str = Field(description="protocol id that made (and alone accepts) the state")
    signature_in: Literal["text", "encrypted"] = Field(
        "text",
        description="the owner's signature rides in the text item (Anthropic, Gemini) or is the "
        "data of an encrypted item (OpenAI Responses encrypted_content); an encrypted item of "
        "a `text` owner is redacted reasoning",
    )
    text_item: str | None = Field(
        None,
        description="item type its reasoning text is written as (default: the first "
        "item row with `signature`)",
    )


class ReasoningItemRow(Strict):
    """One kind of reasoning item, recognised by its `type`; values are wire keys."""

    type: str
    text: str | None = Field(None, description="key of the reasoning text")
    signature: str | None = Field(None, description="key of the signature of the text")
    encrypted: str | None = Field(None, description="key of encrypted reasoning data")


class ReasoningDetails(Strict):
    """Reasoning as a list of typed items on the message (OpenRouter ``reasoning_details``),
    read and written by messages_flat in responses and requests (streams: stream rows)."""

    field: str = Field(description="message key holding the list")
    type_key: str = "type"
    owner_key: str = Field(description="item key naming the owner of its opaque state")
    unknown_owner: str = Field(description="owner value written for reasoning of no known owner")
    id_key: str | None = Field(None, description="item key of the reasoning item id")
    index_key: str | None = Field(None, description="item key numbering the reasoning blocks")
    owners: list[OwnerRow]
    items: list[ReasoningItemRow]
