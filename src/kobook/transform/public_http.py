"""HTTP(S) GETs that reach public addresses only: the one way a build touches the network.

A book is built by CI from strangers' pull requests, and an image URL is theirs to
choose.  Followed naively, ``http://169.254.169.254/…`` is a cloud runner's
credentials printed into the PDF, and ``http://127.0.0.1:…`` any service of the
machine.  So :func:`get` resolves the host itself (every spelling: ``2130706433``,
``0x7f.1``, ``127.1`` and ``[::ffff:127.0.0.1]`` all come back from the resolver
as the address they mean), refuses the request unless every address the name has is
public (:func:`refusal`), and connects to the address it checked: no second lookup
that a DNS server could answer differently.  Redirects are followed by hand, each hop
checked the same way.  HTTPS still verifies the certificate against the host name.

Proxies from the environment are not used: through a proxy the address reached
cannot be checked.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

ALLOWED_NETWORKS: tuple[Network, ...] = ()
"""Networks reached although they are not public: none.  Only tests add loopback here,
for their image server; nothing a book or its metadata says reaches it."""

NAT64 = ipaddress.ip_network("64:ff9b::/96")


class Refused(Exception):
    """The request was not made, or not finished; the message says why in a few words."""


@dataclass(frozen=True)
class Target:
    """A URL's parts, the address checked for its host and the port to connect to."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def embedded(address: Address) -> Address | None:
    """The IPv4 address an IPv6 one carries (mapped, 6to4, Teredo, NAT64), if any."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refusal(address: Address) -> str | None:
    """Why ``address`` may not be reached (None: it is public, or allowed)."""
    if any(address in network for network in ALLOWED_NETWORKS):
        return None
    inner = embedded(address)
    if inner is not None and (reason := refusal(inner)):
        return reason
    if address.is_loopback:
        return "a loopback address"
    if address.is_unspecified:
        return "an unspecified address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if address.is_private or not address.is_global:
        return "a private or reserved address"
    return None


def resolve(host: str, port: int) -> str:
    """The address to connect to for ``host``: every address it resolves to must be public."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        raise Refused(f"cannot resolve the host: {exc}") from None
    found: list[Address] = []
    for info in infos:
        text = str(info[4][0]).split("%", 1)[0]  # fe80::1%eth0: the zone is not the address
        found.append(ipaddress.ip_address(text))
    if not found:
        raise Refused("the host has no address")
    for address in found:
        reason = refusal(address)
        if reason:
            raise Refused(f"the host is {reason} ({address}), which kobook never fetches from")
    return str(found[0])


def target(url: str) -> Target:
    """``url``'s parts and its checked address (raises :class:`Refused`).  The host may
    come percent-encoded (pandoc writes ``[::1]`` as ``%5B::1%5D``)."""
    parts = urlsplit(url)
    parts = parts._replace(netloc=unquote(parts.netloc))
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise Refused(f"'{scheme}:' is not downloaded, only http and https are")
    try:
        host = parts.hostname or ""
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise Refused(f"not a valid address: {exc}") from None
    if not host:
        raise Refused("the address has no host")
    path = urlunsplit(("", "", parts.path or "/", parts.query, ""))
    return Target(scheme, host, port, path, resolve(host, port))


class _Connection(http.client.HTTPConnection):
    """An HTTP connection to a checked address (the Host header keeps the name)."""

    def __init__(self, where: Target, timeout: float) -> None:
        super().__init__(where.host, where.port, timeout=timeout)
        self.address = where.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _SecureConnection(http.client.HTTPSConnection):
    """An HTTPS connection to a checked address, verified against the host's name."""

    def __init__(self, where: Target, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(where.host, where.port, timeout=timeout, context=self.tls)
        self.address = where.address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def display(url: str) -> str:
    """``url`` without the user and password it may carry (never printed)."""
    parts = urlsplit(url)
    if "@" not in unquote(parts.netloc):
        return url
    host = unquote(parts.netloc).rsplit("@", 1)[1]
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


def get(
    url: str, headers: dict[str, str], timeout: float, max_redirects: int
) -> tuple[Any, http.client.HTTPConnection]:
    """The response to a GET of ``url`` (status 200), after at most ``max_redirects``
    redirects, each to a public http(s) address.  The caller reads it, then closes the
    connection.  Raises :class:`Refused` or ``OSError``/``http.client.HTTPException``."""
    for _hop in range(max_redirects + 1):
        where = target(url)
        kind = _SecureConnection if where.scheme == "https" else _Connection
        connection = kind(where, timeout)
        try:
            connection.request("GET", where.path, headers=headers)
            response = connection.getresponse()
        except BaseException:
            connection.close()
            raise
        if response.status in (301, 302, 303, 307, 308):
            location = response.getheader("Location") or ""
            connection.close()
            following = urljoin(url, location)
            if urlsplit(following).scheme.lower() not in ("http", "https"):
                raise Refused(f"redirected to a non-http(s) address: {display(following)[:120]}")
            url = following
            continue
        if response.status != 200:
            reason = f"HTTP {response.status} {response.reason}".strip()
            connection.close()
            raise Refused(reason)
        return response, connection
    raise Refused(f"too many redirects (more than {max_redirects})")
