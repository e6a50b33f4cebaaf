package io.floe.adapters.rest.web.view;

/** One field of a schema, nested ones indented by {@code depth}. */
public record SchemaRow(int depth, String name, String type, boolean required, int fieldId,
    String doc) {}
