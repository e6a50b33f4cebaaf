package io.floe.adapters.rest.web;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;

/**
 * The web app's templates, compiled to classes by the build (jte): rendering is a method call, and
 * every value a template prints is HTML-escaped for where it stands.
 */
public final class Pages {
  private final TemplateEngine engine = TemplateEngine.createPrecompiled(ContentType.Html);

  /** Renders {@code template} (a path under src/main/jte) with its one model parameter. */
  public String render(String template, Object model) {
    StringOutput output = new StringOutput();
    engine.render(template, model, output);
    return output.toString();
  }
}
