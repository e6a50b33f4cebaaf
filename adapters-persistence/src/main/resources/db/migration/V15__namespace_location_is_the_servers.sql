-- A namespace's 'location' property is the server's: it is answered on every load from the
-- namespace's real prefix and never stored. Earlier versions stored a location a client sent
-- with its create word for word, although tables went elsewhere; those are dropped here.
update namespaces set properties = properties - 'location' where properties ? 'location';
