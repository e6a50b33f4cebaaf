package io.floe.adapters.rest.web.view;

/** A partition field or sort field: the source column, its transform, and the rest in words. */
public record SpecRow(String name, String source, String transform, String detail) {}
