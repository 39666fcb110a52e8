"""Photos and documents in the fake Bot API: uploads (multipart, the way aiogram sends an ``InputFile``), the
files Telegram keeps (a ``file_id`` sent again reuses the file, nothing uploaded), and the limits Telegram puts
on them:

- a photo: an image Telegram can read (else ``IMAGE_PROCESS_FAILED``), at most 10 MB (``PHOTO_SAVE_FILE_INVALID``),
  width + height ≤ 10000 and a side ratio ≤ 20 (``PHOTO_INVALID_DIMENSIONS``); the message carries it in
  several sizes, the largest at most 1280 pixels a side;
- a document: not empty, at most 50 MB (an upload past that is refused whole, 413);
- a caption: at most 1024 characters after its entities are parsed;
- a ``file_id``: known to this server, and of the right kind (a document's id is no photo).
"""

from __future__ import annotations

import hashlib
import io
import itertools
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

from tests.fakebot.models import JSON

MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000
MAX_PHOTO_RATIO = 20
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
MAX_CAPTION_LENGTH = 1024
PHOTO_SIZES = (90, 320, 800, 1280)
"""The longest sides of the sizes Telegram makes of a photo (those not larger than the photo itself)."""


class MediaRefusal(Exception):
    """A refusal of a media call: the server turns it into its ApiError (``code``, ``description``)."""

    def __init__(self, description: str, code: int = 400) -> None:
        super().__init__(description)
        self.code = code
        self.description = description


class MediaError:
    """Telegram's descriptions for the media refusals."""

    IMAGE_PROCESS_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"
    PHOTO_TOO_BIG = "Bad Request: PHOTO_SAVE_FILE_INVALID"
    PHOTO_DIMENSIONS = "Bad Request: PHOTO_INVALID_DIMENSIONS"
    FILE_EMPTY = "Bad Request: file must be non-empty"
    TOO_LARGE = "Request Entity Too Large"
    WRONG_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
    TYPE_MISMATCH = "Bad Request: wrong type of the web page content"
    NO_FILE = "Bad Request: there is no {kind} in the request"
    CAPTION_TOO_LONG = "Bad Request: message caption is too long"
    MEDIA_EMPTY = "Bad Request: MEDIA_EMPTY"
    BAD_MEDIA = "Bad Request: can't parse InputMedia: media type is not specified"


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class PhotoSize:
    file_id: str
    file_unique_id: str
    width: int
    height: int
    file_size: int

    def to_json(self) -> JSON:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "width": self.width,
            "height": self.height,
            "file_size": self.file_size,
        }


@dataclass(frozen=True)
class StoredFile:
    """A file Telegram keeps: a photo (its sizes) or a document (its name and type)."""

    kind: str  # "photo" or "document"
    file_id: str
    file_unique_id: str
    data: bytes = field(repr=False)
    sizes: tuple[PhotoSize, ...] = ()
    filename: str = ""
    mime_type: str = ""

    def to_json(self) -> JSON | list[JSON]:
        if self.kind == "photo":
            return [size.to_json() for size in self.sizes]
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_name": self.filename,
            "mime_type": self.mime_type,
            "file_size": len(self.data),
        }


@dataclass(frozen=True)
class Media:
    """What a media message shows: the file (compared by its unique id, as Telegram compares an edit)."""

    kind: str
    file_unique_id: str
    file: StoredFile = field(compare=False, repr=False)


class MediaStore:
    """The files this server was sent, by ``file_id`` and by content."""

    def __init__(self) -> None:
        self._by_id: dict[str, StoredFile] = {}
        self._by_content: dict[tuple[str, str], StoredFile] = {}
        self._ids = itertools.count(1)
        self.uploads = 0
        """Files that came as uploads (bytes sent), not as a ``file_id``."""
        self.reused = 0
        """Files given as a ``file_id`` already known."""

    def __getitem__(self, file_id: str) -> StoredFile:
        return self._by_id[file_id]

    def resolve(self, value: Any, raw: dict[str, Any], kind: str) -> StoredFile:
        """The file a parameter names: an upload (the part itself, or ``attach://<part>``) or a ``file_id``."""
        if isinstance(value, str) and value.startswith("attach://"):
            value = raw.get(value.removeprefix("attach://"))
            if not isinstance(value, Upload):
                raise MediaRefusal(MediaError.NO_FILE.format(kind=kind))
        if isinstance(value, Upload):
            self.uploads += 1
            return self._store(value, kind)
        if not isinstance(value, str) or not value:
            raise MediaRefusal(MediaError.NO_FILE.format(kind=kind))
        if value.startswith(("http://", "https://")):
            raise MediaRefusal(MediaError.WRONG_FILE_ID)  # this server fetches nothing
        known = self._by_id.get(value)
        if known is None:
            raise MediaRefusal(MediaError.WRONG_FILE_ID)
        if known.kind != kind:
            raise MediaRefusal(MediaError.TYPE_MISMATCH)
        self.reused += 1
        return known

    def _store(self, upload: Upload, kind: str) -> StoredFile:
        digest = hashlib.sha256(upload.data).hexdigest()
        unique = f"U{kind[0]}{digest[:16]}"
        known = self._by_content.get((kind, digest))
        if known is not None:
            return known  # the same bytes again: Telegram answers with the same file
        stored = self._photo(upload, unique) if kind == "photo" else self._document(upload, unique)
        self._by_content[(kind, digest)] = stored
        for file_id in {stored.file_id, *(s.file_id for s in stored.sizes)}:
            self._by_id[file_id] = stored
        return stored

    def _new_id(self, kind: str) -> str:
        return f"Ag{kind[0].upper()}{next(self._ids):06d}fake"

    def _photo(self, upload: Upload, unique: str) -> StoredFile:
        if not upload.data:
            raise MediaRefusal(MediaError.FILE_EMPTY)
        if len(upload.data) > MAX_PHOTO_BYTES:
            raise MediaRefusal(MediaError.PHOTO_TOO_BIG)
        try:
            with Image.open(io.BytesIO(upload.data)) as image:
                image.verify()
                width, height = image.size
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
            raise MediaRefusal(MediaError.IMAGE_PROCESS_FAILED) from None
        if width + height > MAX_PHOTO_SIDES or max(width, height) > MAX_PHOTO_RATIO * min(width, height):
            raise MediaRefusal(MediaError.PHOTO_DIMENSIONS)
        longest = max(width, height)
        sides = [s for s in PHOTO_SIZES if s < longest] + [min(longest, PHOTO_SIZES[-1])]
        sizes = []
        for n, side in enumerate(sides):
            scale = side / longest
            w, h = max(1, round(width * scale)), max(1, round(height * scale))
            sizes.append(
                PhotoSize(self._new_id("photo"), f"{unique}{n}", w, h, len(upload.data) * w // width)
            )
        return StoredFile("photo", sizes[-1].file_id, unique, upload.data, tuple(sizes))

    def _document(self, upload: Upload, unique: str) -> StoredFile:
        if not upload.data:
            raise MediaRefusal(MediaError.FILE_EMPTY)
        if len(upload.data) > MAX_DOCUMENT_BYTES:
            raise MediaRefusal(MediaError.TOO_LARGE, 413)
        return StoredFile(
            "document",
            self._new_id("document"),
            unique,
            upload.data,
            filename=upload.filename or "file",
            mime_type=upload.content_type or "application/octet-stream",
        )
