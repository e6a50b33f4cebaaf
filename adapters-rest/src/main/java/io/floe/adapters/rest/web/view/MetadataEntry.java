package io.floe.adapters.rest.web.view;

/** One typed metadata entry as pages show it: key, type label, and the value as text. */
public record MetadataEntry(String key, String type, String value) {}
