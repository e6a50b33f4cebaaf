package io.floe.adapters.rest.web.view;

/**
 * One field of a schema, nested ones indented by {@code depth}. A collapsed field holds
 * {@code hidden} more fields, shown at {@code openHref}; {@code openHref} is null otherwise.
 */
public record SchemaRow(int depth, String name, String type, boolean required, int fieldId,
    String doc, int hidden, String openHref) {}
