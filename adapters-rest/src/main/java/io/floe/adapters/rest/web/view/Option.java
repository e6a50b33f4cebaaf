package io.floe.adapters.rest.web.view;

/** One choice of a select: its value, its label and whether it is the chosen one. */
public record Option(String value, String label, boolean selected) {}
