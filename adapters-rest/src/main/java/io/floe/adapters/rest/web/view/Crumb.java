package io.floe.adapters.rest.web.view;

/** One step of the breadcrumb trail: a label and where it leads (empty for the current page). */
public record Crumb(String label, String href) {}
