// `SessionData` moved to CSEHTTP, below both platform clients (issue #31, point 2); a user who
// imports CSEClientAPI alone still names it without importing the transport.
@_exported public import struct CSEHTTP.SessionData
