/** The fixture's (empty) application layer. */
package io.floe.archfixture.application;
