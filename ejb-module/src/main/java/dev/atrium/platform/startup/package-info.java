/**
 * Starting slow parts ahead: {@code StartedAhead} begins a part's start on a thread of its own while the application
 * deploys and hands it once to the bean that owns it. Each context decides what it starts ahead (a CDI extension
 * observing the container's start) and checks on taking it that it is what its configuration asks for.
 */
package dev.atrium.platform.startup;
