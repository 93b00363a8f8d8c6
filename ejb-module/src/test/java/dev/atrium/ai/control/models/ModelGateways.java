package dev.atrium.ai.control.models;

import dev.atrium.ai.control.AiConfig;

/** The model gateway wired and started as the container does it, answering with the test's development model. */
public final class ModelGateways {

    private ModelGateways() {
    }

    public static ModelGateway of(EchoProvider echo, AiConfig config) {
        var gateway = new ModelGateway();
        gateway.echo = echo;
        gateway.config = config;
        gateway.init();
        return gateway;
    }
}
