package io.floe.adapters.rest.iceberg;

import io.floe.application.port.in.view.CreateViewUseCase;
import io.floe.application.port.in.view.DropViewUseCase;
import io.floe.application.port.in.view.ListViewsUseCase;
import io.floe.application.port.in.view.LoadViewUseCase;
import io.floe.application.port.in.view.RegisterViewUseCase;
import io.floe.application.port.in.view.RenameViewUseCase;
import io.floe.application.port.in.view.ReplaceViewUseCase;
import java.util.Objects;

/** The use cases behind the Iceberg REST catalog's view routes. */
public record ViewUseCases(ListViewsUseCase list, CreateViewUseCase create, LoadViewUseCase load,
    ReplaceViewUseCase replace, DropViewUseCase drop, RenameViewUseCase rename,
    RegisterViewUseCase register) {
  public ViewUseCases {
    Objects.requireNonNull(list, "list");
    Objects.requireNonNull(create, "create");
    Objects.requireNonNull(load, "load");
    Objects.requireNonNull(replace, "replace");
    Objects.requireNonNull(drop, "drop");
    Objects.requireNonNull(rename, "rename");
    Objects.requireNonNull(register, "register");
  }
}
