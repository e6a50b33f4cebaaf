package io.floe.archfixture.application.port.in;

import io.floe.archfixture.application.port.out.MetadataPointers;

/** Breaks the port rule on purpose: an in-port that speaks an out-port's type. */
public interface CancelOrderUseCase {
  void cancel(MetadataPointers pointers);
}
